/* fuzz_config: the libFuzzer entry point over the config loader and the --set parser (see
 * fuzz_input.h for the input format); `make fuzz` runs it from tests/fuzz/corpus. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_entry(fuzz_config_input, "fuzz_config", data, size);
}
