/* tgemm-gbench (`make gbench`): a plain Google Benchmark binary over tg_sgemm / tg_dgemm, plus
 * OpenBLAS's cblas_?gemm when libopenblas.so.0 can be opened, for the familiar workflow:
 *   build/tgemm-gbench --benchmark_filter='sgemm/tgemm/.*threads:1' --benchmark_repetitions=3
 * Fixed square sizes 64..2048, row-major NN, alpha 1, beta 0, 1 thread and all CPUs; a FLOPS counter
 * (Google Benchmark prints it as G/s). This binary does not check results and runs both libraries
 * in one process: for numbers to publish, use tgemm-bench, which checks every case first and keeps
 * each library in its own process.
 */
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "api.h"
#include "vendors.h"

namespace {

template <typename T> struct Operands {
    std::vector<T> a, b, c;
    explicit Operands(int64_t n) : a(n * n), b(n * n), c(n * n)
    {
        unsigned s = 1; /* an LCG's top 24 bits: uniform in [-0.5, 0.5), never all zeros */
        for (auto *v : {&a, &b}) {
            for (T &x : *v) {
                s = s * 1103515245u + 12345u;
                x = static_cast<T>(s >> 8) * T(1.0 / (1 << 24)) - T(0.5);
            }
        }
    }
};

/* One benchmark for an implementation, a dtype and a thread count; state.range(0) is the size. */
template <typename T> void bench(benchmark::State &st, tg__impl_ops ops, int threads)
{
    int64_t n = st.range(0);
    Operands<T> x(n);
    ops.set_threads(threads);
    for (auto _ : st) {
        int rc;
        if constexpr (sizeof(T) == 4)
            rc = ops.sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, n, n, n, 1, x.a.data(), n,
                           x.b.data(), n, 0, x.c.data(), n);
        else
            rc = ops.dgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, n, n, n, 1, x.a.data(), n,
                           x.b.data(), n, 0, x.c.data(), n);
        if (rc != 0) {
            st.SkipWithError("the GEMM returned an error");
            break;
        }
        benchmark::DoNotOptimize(x.c.data());
    }
    st.counters["FLOPS"] = benchmark::Counter(2.0 * double(n) * double(n) * double(n),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void register_impl(tg__impl_id id)
{
    tg__impl_ops ops;
    char why[512];
    if (tg__impl_load(id, &ops, why, sizeof why) != 0) {
        std::fprintf(stderr, "tgemm-gbench: %s skipped: %s\n", tg__impl_name(id), why);
        return;
    }
    std::vector<int> threads = {1};
    int all = static_cast<int>(std::thread::hardware_concurrency());
    if (all > 1) threads.push_back(all);
    for (int t : threads) {
        for (char dt : {'s', 'd'}) {
            std::string name = std::string(1, dt) + "gemm/" + tg__impl_name(id) + "/threads:" +
                               std::to_string(t);
            auto *b = dt == 's' ? benchmark::RegisterBenchmark(name.c_str(), bench<float>, ops, t)
                                : benchmark::RegisterBenchmark(name.c_str(), bench<double>, ops, t);
            b->RangeMultiplier(2)->Range(64, 2048)->UseRealTime()->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    register_impl(TG__IMPL_TGEMM);
    register_impl(TG__IMPL_OPENBLAS);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
