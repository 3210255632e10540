#ifndef GPSFENCE_CMEMORY_SHIM_H
#define GPSFENCE_CMEMORY_SHIM_H
/* glibc's malloc tuning (malloc.h), which the Glibc module that Swift imports leaves out.
   M_MMAP_THRESHOLD is -3 there. */
int mallopt(int param, int value);

/* Blocks of `bytes` or more each get their own mapping, returned to the system when freed. */
static inline int gpsfence_set_mmap_threshold(int bytes) {
    return mallopt(-3, bytes);
}
/* The CPU affinity of a process (sched.h with _GNU_SOURCE, which the Glibc module leaves out):
   `size` bytes of the mask, a bit per processor; 0, or -1 with errno set. */
int sched_getaffinity(int pid, unsigned long size, void *mask);
#endif
