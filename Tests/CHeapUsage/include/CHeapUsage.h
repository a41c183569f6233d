#pragma once
#include <stddef.h>

/// Bytes the C heap (malloc) has handed out and not had back, in every arena, mmapped blocks included:
/// glibc's mallinfo2 uordblks + hblkhd. Unlike resident memory, fragmentation and pages the allocator
/// keeps for later do not count, so a leak shows here and heap noise does not.
size_t heap_bytes_in_use(void);
