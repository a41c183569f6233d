#ifndef CFUZZER_H
#define CFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp), which a -sanitize=fuzzer link brings in whole. Weak, so that
// a plain build links too: there it is null, and CFuzzer_run_driver says so by returning -1.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size))
    __attribute__((weak));

/// Runs libFuzzer on `test_one_input` with the command line's options; -1 when the binary has no libFuzzer.
static inline int CFuzzer_run_driver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *, size_t)) {
    return LLVMFuzzerRunDriver ? LLVMFuzzerRunDriver(argc, argv, test_one_input) : -1;
}

#endif
