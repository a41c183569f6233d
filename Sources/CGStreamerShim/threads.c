// The calling thread as the kernel knows it. What makes these C: gettid is a raw system call on the
// glibc that Swift's Glibc module imports (no declaration), and prctl is variadic.
#define _GNU_SOURCE
#include "CGStreamerShimThreads.h"

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

long CGStreamerShim_thread_id(void) { return (long)syscall(SYS_gettid); }

void CGStreamerShim_thread_set_name(const char *name) { prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
