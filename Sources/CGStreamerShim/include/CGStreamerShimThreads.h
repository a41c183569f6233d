// The calling thread as the kernel knows it (threads.c).
#ifndef CGSTREAMER_SHIM_THREADS_H
#define CGSTREAMER_SHIM_THREADS_H

/// The calling thread's id in the kernel (`gettid`), the name of its entry in /proc/self/task.
long CGStreamerShim_thread_id(void);
/// Names the calling thread (at most 15 bytes are kept), as /proc/self/task/ID/comm and gdb show it.
void CGStreamerShim_thread_set_name(const char *name);

#endif
