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

/* The calling thread's timer slack (prctl.h; prctl is variadic, which Swift cannot call):
   PR_SET_TIMERSLACK is 29, PR_GET_TIMERSLACK 30. Setting returns 0, or -1 with errno set; getting
   returns the slack in nanoseconds. */
int prctl(int option, ...);
static inline int gpsfence_set_timer_slack(unsigned long nanoseconds) {
    return prctl(29, nanoseconds, 0UL, 0UL, 0UL);
}
static inline int gpsfence_timer_slack(void) {
    return prctl(30, 0UL, 0UL, 0UL, 0UL);
}
#endif
