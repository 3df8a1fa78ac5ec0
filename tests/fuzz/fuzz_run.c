/* fuzz_run: the libFuzzer entry point that simulates the accepted configs of small networks
 * for a few hundred cycles with the invariant recount on (see fuzz_input.h); `make fuzz` runs
 * it from tests/fuzz/corpus, the config harness's inputs. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_entry(fuzz_run_input, "fuzz_run", data, size);
}
