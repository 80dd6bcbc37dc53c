/* In-place elementwise calls of two or more builds of libtgemm, loaded side by side into one
 * process and alternated round by round, beside STREAM's in-place scale loop (a static split over
 * an OpenMP team, as tgemm-bench's reference). Arrays of n floats or n/2 doubles (n * 4 bytes),
 * offset OFF bytes from a 64-byte boundary. Prints GB/s, median over rounds: one column per
 * library, then (scale only) the reference loop.
 *   gcc -O3 -fopenmp -march=native -mprefer-vector-width=512 -Icommon -DOFF=0 inplace_ab.c -ldl
 *   ./a.out ./old.so ./new.so ./old-copy.so $((1<<27)) 7 2      (libs..., n, rounds, threads)
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>
#include "api.h"
typedef int (*scale_fn)(tg_dtype, int64_t, double, void *);
typedef int (*axpy_fn)(tg_dtype, int64_t, double, const void *, void *);
typedef int (*bias_fn)(tg_dtype, tg_layout, int64_t, int64_t, const void *, tg_bias_mode, tg_act, void *, int64_t);
typedef void (*threads_fn)(int);
static double now(void){struct timespec ts;clock_gettime(CLOCK_MONOTONIC,&ts);return ts.tv_sec+1e-9*ts.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(const double*)a,y=*(const double*)b;return (x>y)-(x<y);}
static void ref_scale(int es, int64_t n, double a, void *x, int nt){
#pragma omp parallel num_threads(nt)
 { int64_t team=omp_get_num_threads(), part=((n+team-1)/team+15)/16*16, lo=omp_get_thread_num()*part, hi=lo+part<n?lo+part:n;
   if (es==4){float s=(float)a,*p=(float*)x; for(int64_t i=lo;i<hi;i++) p[i]*=s;}
   else {double *p=(double*)x; for(int64_t i=lo;i<hi;i++) p[i]*=a;} }
}
int main(int argc,char**argv){
  int nl=argc-4; int64_t n=atoll(argv[argc-3]); int rounds=atoi(argv[argc-2]), nt=atoi(argv[argc-1]);
  scale_fn sc[8]; axpy_fn ax[8]; bias_fn bi[8];
  for(int l=0;l<nl;l++){void*h=dlopen(argv[1+l],RTLD_NOW|RTLD_LOCAL); if(!h){fprintf(stderr,"%s\n",dlerror());return 2;}
    sc[l]=(scale_fn)dlsym(h,"tg_scale"); ax[l]=(axpy_fn)dlsym(h,"tg_axpy"); bi[l]=(bias_fn)dlsym(h,"tg_bias_act");
    ((threads_fn)dlsym(h,"tg_set_num_threads"))(nt);}
  void *X[2],*Y[2]; for(int k=0;k<2;k++){X[k]=(char*)aligned_alloc(64,n*4+128)+OFF;Y[k]=(char*)aligned_alloc(64,n*4+128)+OFF;}
  void *b=aligned_alloc(64,1024*8);
  for(int64_t i=0;i<n;i++){((float*)X[0])[i]=1.0f+(i%7); ((float*)Y[0])[i]=1.0f+(i%5);}
  for(int64_t i=0;i<n/2;i++){((double*)X[1])[i]=1.0+(i%7); ((double*)Y[1])[i]=1.0+(i%5);} for(int i=0;i<1024;i++)((double*)b)[i]=0.0;
  enum{NC=6}; const char*names[NC]={"scale s","scale d","axpy s","axpy d","biasrelu s","biasrelu d"};
  int L=nl+1; double *ts=malloc(sizeof(double)*NC*L*rounds);
  for(int r=-1;r<rounds;r++) for(int c=0;c<NC;c++) for(int l=0;l<L;l++){
    tg_dtype t=(c&1)?TG_F64:TG_F32; int es=(c&1)?8:4; int64_t m=n*8/es/2; /* same bytes: n*4 bytes per array */
    double alpha=(r&1)?2.0:0.5; void *x=X[c&1],*y=Y[c&1]; double t0=now();
    if(l==nl){ if(c<2) ref_scale(es,m,alpha,y,nt); else continue; }
    else if(c<2) sc[l](t,m,alpha,y);
    else if(c<4) ax[l](t,m,alpha>1?1:-1,x,y);
    else bi[l](t,TG_ROW_MAJOR,m/1024,1024,b,TG_BIAS_PER_COL,TG_ACT_RELU,y,1024);
    double dt=now()-t0; if(r>=0) ts[(c*L+l)*rounds+r]=dt;
  }
  for(int c=0;c<NC;c++){ printf("%-11s",names[c]); int es=(c&1)?8:4; double bytes=(c>=2&&c<4?3.0:2.0)*n*4;
    for(int l=0;l<L;l++){ if(l==nl&&c>=2) continue; qsort(ts+(c*L+l)*rounds,rounds,sizeof(double),cmp); printf("  %6.1f",bytes/ts[(c*L+l)*rounds+rounds/2]*1e-9);} printf("  GB/s\n");}
  return 0;
}
