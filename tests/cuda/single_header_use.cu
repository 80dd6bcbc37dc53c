/* The single header used as its documentation says, part 2: a file that only includes it (see
 * single_header_impl.cu). An invalid call made here must be rejected before touching the device and
 * explained by tg_last_error(), whose buffer lives in the implementation file. */
#include "tgemm_cuda.cuh"

#include <string.h>

int tg_test_other_file(void)
{
    float *not_touched = (float *)0x1000; /* rejected before any use */
    int st = tg_cuda_sgemm(TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 1.f, not_touched, 7,
                           not_touched, 8, 0.f, not_touched, 8, 0);
    return st == TG_ERR_ARG && strstr(tg_last_error(), "tg_cuda_sgemm: parameter 9 (lda)") != NULL;
}
