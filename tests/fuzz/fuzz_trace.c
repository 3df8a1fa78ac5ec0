/* fuzz_trace: the libFuzzer entry point over the trace reader and replay (see fuzz_input.h for
 * the input format); `make fuzz` runs it from tests/fuzz/corpus_trace. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_entry(fuzz_trace_input, "fuzz_trace", data, size);
}
