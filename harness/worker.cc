/* The worker: `tgemm-bench worker IMPL [options] CASE...`, one implementation in one process.
 *
 * This is the harness's only C++ (Google Benchmark is a C++ library); everything else it calls is C.
 * For each case in turn: set the implementation's thread count, build the operands, check the result
 * against the fp64 reference (round 1 only: the parent asks with --check; other rounds make one
 * untimed call instead, so every round starts warm), then register the case as
 * a Google Benchmark, run it (warm-up, repetitions, real time, process CPU time) and drop it again,
 * so only one case's matrices are alive at a time. Elementwise cases (ew_bench.h) take the same
 * path with their own operands and check. What it learns goes to stdout as lines the parent
 * (sweep.c) reads:
 *   check <case> <ok 0|1> <max_ratio> <reference|randomized> <message>
 *   skip <case> <reason>                 (the implementation cannot run this case)
 *   time <case> <real_ns> <cpu_ns> <iterations>   (one line per repetition)
 *   done <case>
 * `tgemm-bench worker --info IMPL` prints the library's JSON record instead (vendors.c).
 */
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>

#include "bench.h"
#include "check.h"
#include "ew_bench.h"
#include "vendors.h"

namespace {

struct WorkerOptions {
    int impl = -1;
    int reps = 1;
    double min_time = 0.05, warmup = 0.0, alpha = 1, beta = 0;
    bool check = false;
    const char *plant = nullptr; /* the planted implementation's case, MxNxK */
};

/* Prints each repetition of the one registered case as a `time` line, errors as `skip`. */
class LineReporter : public benchmark::BenchmarkReporter {
  public:
    explicit LineReporter(int index) : index_(index) {}
    bool ReportContext(const Context &) override { return true; }
    void ReportRuns(const std::vector<Run> &runs) override
    {
        for (const Run &r : runs) {
            if (r.error_occurred) {
                std::printf("skip %d %s\n", index_, r.error_message.c_str());
            } else if (r.run_type == Run::RT_Iteration && r.iterations > 0) {
                double it = static_cast<double>(r.iterations);
                std::printf("time %d %.6g %.6g %lld\n", index_, r.real_accumulated_time / it * 1e9,
                            r.cpu_accumulated_time / it * 1e9, static_cast<long long>(r.iterations));
            }
        }
        std::fflush(stdout);
    }

  private:
    int index_;
};

uint64_t fresh_seed(int index)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_nsec) ^ (static_cast<uint64_t>(ts.tv_sec) << 30) ^
           (static_cast<uint64_t>(getpid()) << 16) ^
           static_cast<uint64_t>(index) * 0x9e3779b97f4a7c15ull;
}

/* Operands depend only on the case, so every round and implementation multiplies the same numbers. */
uint64_t case_seed(const char *spec)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *p = spec; *p; p++) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
    return h;
}

/* Times one case through Google Benchmark: run() is one call of the implementation. */
void time_case(int index, const tg__case &c, const WorkerOptions &o, const std::function<int()> &run)
{
    /* One untimed call in every round, so that no timed iteration pays for starting threads or
     * first-touching buffers (Google Benchmark accepts a single slow first iteration as its whole
     * measurement when it exceeds --min-time). */
    if (!o.check) run();
    char name[256];
    tg__case_name(&c, tg__impl_name(static_cast<tg__impl_id>(o.impl)), name, sizeof name);
    benchmark::RegisterBenchmark(name,
                                 [&run](benchmark::State &st) {
                                     for (auto _ : st) {
                                         if (run() != 0) {
                                             st.SkipWithError("the implementation returned an error");
                                             break;
                                         }
                                     }
                                 })
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Repetitions(o.reps)
        ->MinTime(o.min_time)
        ->MinWarmUpTime(o.warmup)
        ->Unit(benchmark::kMillisecond);
    LineReporter reporter(index);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::ClearRegisteredBenchmarks();
}

/* An elementwise case (ew_bench.h): its operands, its check, then the same timing. */
void run_ew_case(int index, const char *spec, const tg__case &c, const WorkerOptions &o)
{
    if (const char *why = tg__ew_unsupported(o.impl, &c)) {
        std::printf("skip %d %s\n", index, why);
        return;
    }
    tg__ew_problem p;
    if (tg__ew_problem_init(&p, &c, o.impl, case_seed(spec), o.plant) != 0) {
        std::printf("check %d 0 inf all out of memory for the arrays of %s\n", index, spec);
        return;
    }
    if (o.check) {
        tg__ew_check_result r;
        tg__ew_check(&p, fresh_seed(index), &r);
        std::printf("check %d %d %.6g %s %s\n", index, r.ok, r.max_ulps, r.method, r.msg);
        std::fflush(stdout);
    }
    time_case(index, c, o, [&p]() { return tg__ew_problem_run(&p); });
    tg__ew_problem_free(&p);
}

void run_case(int index, const char *spec, const WorkerOptions &o, const tg__impl_ops &ops)
{
    tg__case c;
    if (tg__case_parse(spec, &c) != 0) {
        std::printf("check %d 0 inf reference malformed case '%s'\n", index, spec);
        return;
    }
    ops.set_threads(c.threads);
    if (c.op != TG__OP_GEMM) {
        run_ew_case(index, spec, c, o);
        return;
    }
    if (const char *why = ops.unsupported(&c)) {
        std::printf("skip %d %s\n", index, why);
        return;
    }
    tg__problem p;
    if (tg__problem_init(&p, &c, o.alpha, o.beta, case_seed(spec)) != 0) {
        std::printf("check %d 0 inf reference out of memory for the operands of %s\n", index, spec);
        return;
    }
    if (o.check && o.impl == TG__IMPL_PEAK) {
        /* the FMA probe computes no product: nothing to check (the report leaves it out) */
        std::printf("check %d 1 0 probe the FMA peak, no product\n", index);
        std::fflush(stdout);
    } else if (o.check) {
        tg__check_result r;
        tg__check(&p, &ops, fresh_seed(index), &r);
        if (r.unsupported) {
            std::printf("skip %d the implementation has no kernel for this shape\n", index);
            tg__problem_free(&p);
            return;
        }
        std::printf("check %d %d %.6g %s %s\n", index, r.ok, r.max_ratio, r.method, r.msg);
        std::fflush(stdout);
    }
    time_case(index, c, o, [&p, &ops]() { return tg__problem_run(&p, &ops); });
    tg__problem_free(&p);
}

int usage(const char *msg)
{
    std::fprintf(stderr, "tgemm-bench worker: %s\n(workers are started by tgemm-bench itself)\n",
                 msg);
    return 2;
}

} // namespace

extern "C" int tg__worker_main(int argc, char **argv)
{
    /* argv[0] is "worker". */
    if (argc == 3 && std::strcmp(argv[1], "--info") == 0) {
        int id = tg__impl_parse(argv[2]);
        if (id < 0) return usage("unknown implementation");
        tg__impl_info_json(static_cast<tg__impl_id>(id), stdout);
        std::printf("\n");
        return 0;
    }
    if (argc < 2) return usage("no implementation given");
    WorkerOptions o;
    o.impl = tg__impl_parse(argv[1]);
    if (o.impl < 0) return usage("unknown implementation");
    int i = 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--check")) { o.check = true; continue; }
        if (!std::strcmp(a, "--")) { i++; break; }
        if (!v) return usage("an option lacks its value");
        i++;
        if (!std::strcmp(a, "--reps")) o.reps = std::atoi(v);
        else if (!std::strcmp(a, "--min-time")) o.min_time = std::atof(v);
        else if (!std::strcmp(a, "--warmup")) o.warmup = std::atof(v);
        else if (!std::strcmp(a, "--alpha")) o.alpha = std::atof(v);
        else if (!std::strcmp(a, "--beta")) o.beta = std::atof(v);
        else if (!std::strcmp(a, "--plant")) {
            long long m, n, k;
            if (std::sscanf(v, "%lldx%lldx%lld", &m, &n, &k) != 3) return usage("bad --plant");
            tg__planted_target(m, n, k);
            o.plant = v;
        } else return usage("unknown option");
    }
    tg__impl_ops ops;
    char why[512];
    if (tg__impl_load(static_cast<tg__impl_id>(o.impl), &ops, why, sizeof why) != 0) {
        for (int j = i; j < argc; j++) std::printf("skip %d %s\n", j - i, why);
        return 0;
    }
    int one = 1;
    char *args[] = {argv[0], nullptr};
    benchmark::Initialize(&one, args);
    for (int j = i; j < argc; j++) {
        run_case(j - i, argv[j], o, ops);
        std::printf("done %d\n", j - i);
        std::fflush(stdout);
    }
    return 0;
}

extern "C" void tg__gbench_context_json(FILE *out, const char *argv0)
{
    /* Google Benchmark's own context object, exactly as its JSON reporter writes it: the reporter
     * writes "{ "context": {...}, "benchmarks": [", and the object is cut out of that text. */
    int one = 1;
    char *args[] = {const_cast<char *>(argv0), nullptr};
    benchmark::Initialize(&one, args);
    std::ostringstream text;
    benchmark::JSONReporter json;
    json.SetOutputStream(&text);
    json.SetErrorStream(&text);
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    std::string s = text.str();
    size_t start = s.find('{', s.find("\"context\""));
    int depth = 0;
    bool in_str = false;
    for (size_t i = start; start != std::string::npos && i < s.size(); i++) {
        char ch = s[i];
        if (in_str) {
            if (ch == '\\') i++;
            else if (ch == '"') in_str = false;
            continue;
        }
        if (ch == '"') in_str = true;
        else if (ch == '{') depth++;
        else if (ch == '}' && --depth == 0) {
            std::fputs(s.substr(start, i - start + 1).c_str(), out);
            return;
        }
    }
    std::fputs("{}", out);
}
