#ifndef GPSFENCE_CFILESPACE_SHIM_H
#define GPSFENCE_CFILESPACE_SHIM_H
/* fallocate(2) is a GNU extension: the Glibc module that Swift imports is built without
   _GNU_SOURCE and does not declare it. Linux's FALLOC_FL_KEEP_SIZE (linux/falloc.h) is 1;
   off_t is a long on the 64-bit targets gpsfence is built for. */
int fallocate(int fd, int mode, long offset, long len);

/* Reserves the disk blocks of the first `length` bytes of the file, without changing its size. */
static inline int gpsfence_reserve_blocks(int fd, long length) {
    return fallocate(fd, 1, 0, length);
}
#endif
