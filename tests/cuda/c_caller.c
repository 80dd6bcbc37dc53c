/* A plain C11 program using the CUDA API: the public header compiles as C (with only CUDA's include
 * directory) and the libraries link from C, shared and static. No GPU needed: the call is invalid
 * and must be rejected, naming its parameter, before anything touches the device. */
#include <stdio.h>
#include <string.h>

#include "tgemm_cuda.h"

int main(void)
{
    float x = 0;
    int st = tg_cuda_sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 2, 2, 2, 1.f, &x, 1, &x, 2, 0.f, &x, 2, 0);
    int ok = st == TG_ERR_ARG && strstr(tg_last_error(), "tg_cuda_sgemm: parameter 9 (lda)") != NULL &&
             tg_cuda_sgemm_step_count() == 9;
    if (!ok) printf("FAIL from C: status %d, message \"%s\"\n", st, tg_last_error());
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
