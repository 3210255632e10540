/*
 * powercutfs: a FUSE passthrough filesystem for the power-cut tests, in the spirit of LazyFS.
 *
 *     powercutfs ROOT MOUNTPOINT
 *
 * Every file of ROOT appears under MOUNTPOINT. Data written to a file stays in this process's
 * memory (reads see it) until the file is fsync'ed or fdatasync'ed through any of its handles;
 * only then does it reach ROOT. Unmounting (`fusermount3 -u MOUNTPOINT`) or killing this process is
 * the power cut: whatever was not synced is gone, as on a machine whose page cache vanished.
 * Namespace operations (create, unlink, rename, mkdir) pass through at once, as on a filesystem
 * that journals its metadata.
 *
 * Runs in the foreground and prints "ready" on standard output once mounted.
 *
 * Build: cc -O2 -Wall -o powercutfs powercutfs.c $(pkg-config --cflags --libs fuse3)
 */
#define FUSE_USE_VERSION 35
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK 4096

static char root[PATH_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* A file that was written or truncated since mount: its whole content, as reads must see it. */
struct node {
    char *path;
    unsigned char *data;
    size_t size, capacity;
    unsigned char *dirty; /* one byte per BLOCK: written since the last sync */
    size_t dirtyBlocks;
    bool sizeChanged;
    struct node *next;
};
static struct node *nodes;

static void real_path(char out[PATH_MAX], const char *path) { snprintf(out, PATH_MAX, "%s%s", root, path); }

static struct node *find(const char *path) {
    for (struct node *n = nodes; n; n = n->next)
        if (strcmp(n->path, path) == 0) return n;
    return NULL;
}

static int reserve(struct node *n, size_t size) {
    if (size > n->capacity) {
        size_t capacity = n->capacity ? n->capacity : BLOCK;
        while (capacity < size) capacity *= 2;
        unsigned char *data = realloc(n->data, capacity);
        if (!data) return -ENOMEM;
        memset(data + n->capacity, 0, capacity - n->capacity);
        n->data = data;
        n->capacity = capacity;
    }
    size_t blocks = (size + BLOCK - 1) / BLOCK;
    if (blocks > n->dirtyBlocks) {
        unsigned char *dirty = realloc(n->dirty, blocks);
        if (!dirty && blocks) return -ENOMEM;
        memset(dirty + n->dirtyBlocks, 0, blocks - n->dirtyBlocks);
        n->dirty = dirty;
        n->dirtyBlocks = blocks;
    }
    return 0;
}

/* The node of `path`, loaded from ROOT on first use. */
static int load(const char *path, struct node **out) {
    struct node *n = find(path);
    if (n) {
        *out = n;
        return 0;
    }
    char real[PATH_MAX];
    real_path(real, path);
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = -errno;
        close(fd);
        return e;
    }
    n = calloc(1, sizeof *n);
    if (!n) {
        close(fd);
        return -ENOMEM;
    }
    n->path = strdup(path);
    int e = reserve(n, (size_t)st.st_size);
    size_t done = 0;
    while (e == 0 && done < (size_t)st.st_size) {
        ssize_t got = pread(fd, n->data + done, (size_t)st.st_size - done, (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    close(fd);
    if (e) {
        free(n->data);
        free(n->dirty);
        free(n->path);
        free(n);
        return e;
    }
    n->size = done;
    memset(n->dirty, 0, n->dirtyBlocks);
    n->next = nodes;
    nodes = n;
    *out = n;
    return 0;
}

static void forget(const char *path) {
    for (struct node **p = &nodes; *p; p = &(*p)->next) {
        if (strcmp((*p)->path, path) == 0) {
            struct node *n = *p;
            *p = n->next;
            free(n->data);
            free(n->dirty);
            free(n->path);
            free(n);
            return;
        }
    }
}

static void set_size(struct node *n, size_t size) {
    if (size > n->size) {
        for (size_t b = n->size / BLOCK; b < (size + BLOCK - 1) / BLOCK; b++) n->dirty[b] = 1;
    } else {
        memset(n->data + size, 0, n->size - size);
    }
    n->size = size;
    n->sizeChanged = true;
}

/* The sync: what this file holds in memory reaches ROOT (and ROOT's own disk). */
static int sync_node(struct node *n) {
    char real[PATH_MAX];
    real_path(real, n->path);
    int fd = open(real, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    int e = 0;
    if (n->sizeChanged && ftruncate(fd, (off_t)n->size) < 0) e = -errno;
    for (size_t b = 0; e == 0 && b < n->dirtyBlocks; b++) {
        if (!n->dirty[b]) continue;
        size_t start = b * BLOCK;
        if (start >= n->size) break;
        size_t length = n->size - start < BLOCK ? n->size - start : BLOCK;
        if (pwrite(fd, n->data + start, length, (off_t)start) != (ssize_t)length) e = errno ? -errno : -EIO;
    }
    if (e == 0) {
        memset(n->dirty, 0, n->dirtyBlocks);
        n->sizeChanged = false;
    }
    close(fd);
    return e;
}

static void *pc_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    cfg->use_ino = 0;
    cfg->attr_timeout = 0;
    cfg->entry_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->hard_remove = 0; /* an unlinked open file keeps a path (.fuse_hidden...) */
    cfg->kernel_cache = 0;
    return NULL;
}

static int pc_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    (void)fi;
    char real[PATH_MAX];
    real_path(real, path);
    if (lstat(real, st) < 0) return -errno;
    pthread_mutex_lock(&lock);
    struct node *n = find(path);
    if (n) {
        st->st_size = (off_t)n->size;
        st->st_blocks = (blkcnt_t)((n->size + 511) / 512);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pc_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void)offset, (void)fi, (void)flags;
    char real[PATH_MAX];
    real_path(real, path);
    DIR *dir = opendir(real);
    if (!dir) return -errno;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        struct stat st = {.st_ino = entry->d_ino, .st_mode = (mode_t)(entry->d_type << 12)};
        if (fill(buf, entry->d_name, &st, 0, 0)) break;
    }
    closedir(dir);
    return 0;
}

static int pc_mkdir(const char *path, mode_t mode) {
    char real[PATH_MAX];
    real_path(real, path);
    return mkdir(real, mode) < 0 ? -errno : 0;
}

static int pc_rmdir(const char *path) {
    char real[PATH_MAX];
    real_path(real, path);
    return rmdir(real) < 0 ? -errno : 0;
}

static int pc_unlink(const char *path) {
    char real[PATH_MAX];
    real_path(real, path);
    if (unlink(real) < 0) return -errno;
    pthread_mutex_lock(&lock);
    forget(path);
    pthread_mutex_unlock(&lock);
    return 0;
}

/* Rename is metadata: it passes through, and the unsynced data moves with the name. */
static int pc_rename(const char *from, const char *to, unsigned int flags) {
    if (flags) return -EINVAL;
    char realFrom[PATH_MAX], realTo[PATH_MAX];
    real_path(realFrom, from);
    real_path(realTo, to);
    if (rename(realFrom, realTo) < 0) return -errno;
    pthread_mutex_lock(&lock);
    forget(to);
    struct node *n = find(from);
    if (n) {
        free(n->path);
        n->path = strdup(to);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pc_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void)fi;
    char real[PATH_MAX];
    real_path(real, path);
    return chmod(real, mode) < 0 ? -errno : 0;
}

static int pc_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void)fi;
    char real[PATH_MAX];
    real_path(real, path);
    return lchown(real, uid, gid) < 0 ? -errno : 0;
}

static int pc_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    (void)fi;
    char real[PATH_MAX];
    real_path(real, path);
    return utimensat(AT_FDCWD, real, tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int truncate_node(const char *path, off_t size) {
    pthread_mutex_lock(&lock);
    struct node *n;
    int e = load(path, &n);
    if (e == 0) e = reserve(n, (size_t)size);
    if (e == 0) set_size(n, (size_t)size);
    pthread_mutex_unlock(&lock);
    return e;
}

static int pc_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    (void)fi;
    return truncate_node(path, size);
}

static int pc_open(const char *path, struct fuse_file_info *fi) {
    char real[PATH_MAX];
    real_path(real, path);
    /* Every access goes through `path`: the handle only proves that the file can be opened so. */
    int fd = open(real, (fi->flags & ~(O_TRUNC | O_APPEND | O_CREAT | O_EXCL)) | O_CLOEXEC);
    if (fd < 0) return -errno;
    close(fd);
    fi->keep_cache = 0;
    return fi->flags & O_TRUNC ? truncate_node(path, 0) : 0;
}

static int pc_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    char real[PATH_MAX];
    real_path(real, path);
    int fd = open(real, O_CREAT | O_WRONLY | O_CLOEXEC | (fi->flags & O_EXCL), mode);
    if (fd < 0) return -errno;
    close(fd);
    return fi->flags & O_TRUNC ? truncate_node(path, 0) : 0;
}

static int pc_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)fi;
    pthread_mutex_lock(&lock);
    struct node *n = find(path);
    if (n) {
        size_t count = (size_t)offset >= n->size ? 0 : n->size - (size_t)offset;
        if (count > size) count = size;
        memcpy(buf, n->data + offset, count);
        pthread_mutex_unlock(&lock);
        return (int)count;
    }
    pthread_mutex_unlock(&lock);
    char real[PATH_MAX];
    real_path(real, path);
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    ssize_t got = pread(fd, buf, size, offset);
    int e = got < 0 ? -errno : (int)got;
    close(fd);
    return e;
}

static int pc_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)fi;
    pthread_mutex_lock(&lock);
    struct node *n;
    int e = load(path, &n);
    size_t end = (size_t)offset + size;
    if (e == 0) e = reserve(n, end);
    if (e == 0) {
        if (end > n->size) {
            set_size(n, end);
        }
        memcpy(n->data + offset, buf, size);
        for (size_t b = (size_t)offset / BLOCK; b < (end + BLOCK - 1) / BLOCK; b++) n->dirty[b] = 1;
    }
    pthread_mutex_unlock(&lock);
    return e ? e : (int)size;
}

static int pc_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)datasync, (void)fi;
    pthread_mutex_lock(&lock);
    struct node *n = find(path);
    int e = n ? sync_node(n) : 0;
    pthread_mutex_unlock(&lock);
    return e;
}

static int pc_statfs(const char *path, struct statvfs *st) {
    (void)path;
    return statvfs(root, st) < 0 ? -errno : 0;
}

static int pc_access(const char *path, int mask) {
    char real[PATH_MAX];
    real_path(real, path);
    return access(real, mask) < 0 ? -errno : 0;
}

static const struct fuse_operations operations = {
    .init = pc_init,
    .getattr = pc_getattr,
    .readdir = pc_readdir,
    .mkdir = pc_mkdir,
    .rmdir = pc_rmdir,
    .unlink = pc_unlink,
    .rename = pc_rename,
    .chmod = pc_chmod,
    .chown = pc_chown,
    .utimens = pc_utimens,
    .truncate = pc_truncate,
    .open = pc_open,
    .create = pc_create,
    .read = pc_read,
    .write = pc_write,
    .fsync = pc_fsync,
    .statfs = pc_statfs,
    .access = pc_access,
};

int main(int argc, char *argv[]) {
    if (argc != 3) {
        fprintf(stderr, "usage: powercutfs ROOT MOUNTPOINT\n");
        return 2;
    }
    if (!realpath(argv[1], root)) {
        fprintf(stderr, "powercutfs: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    char *args[] = {argv[0], "-o", "fsname=powercutfs,auto_unmount", NULL};
    struct fuse_args fargs = FUSE_ARGS_INIT(3, args);
    struct fuse *fuse = fuse_new(&fargs, &operations, sizeof operations, NULL);
    if (!fuse) return 1;
    if (fuse_mount(fuse, argv[2]) != 0) {
        fuse_destroy(fuse);
        return 1;
    }
    fuse_set_signal_handlers(fuse_get_session(fuse));
    printf("ready\n");
    fflush(stdout);
    struct fuse_loop_config *config = fuse_loop_cfg_create();
    int status = fuse_loop_mt(fuse, config);
    fuse_loop_cfg_destroy(config);
    fuse_remove_signal_handlers(fuse_get_session(fuse));
    fuse_unmount(fuse);
    fuse_destroy(fuse);
    return status ? 1 : 0;
}
