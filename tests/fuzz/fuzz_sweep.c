/* fuzz_sweep: the libFuzzer entry point over the sweep loader and the grid expansion (see
 * fuzz_input.h for the input and its properties); `make fuzz` runs it from
 * tests/fuzz/corpus_sweep. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_entry(fuzz_sweep_input, "fuzz_sweep", data, size);
}
