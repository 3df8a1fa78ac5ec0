/* fuzz_config: the libFuzzer entry point over the config loader and the --set parser (see
 * fuzz_input.h for the input format); `make fuzz` runs it from tests/fuzz/corpus. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[2048];
    if (fuzz_config_input(data, size, why, sizeof why) != 0) {
        fprintf(stderr, "fuzz_config: %s\n", why);
        abort(); /* libFuzzer keeps the input as a crash artifact */
    }
    return 0;
}
