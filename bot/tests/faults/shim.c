/* An LD_PRELOAD shim that makes chosen I/O calls fail on files under one directory, so
 * that tests run the real program against real files and see real errors.
 *
 * Configured by environment variables, read once:
 *   STONEMATE_FAULT_PATH   only descriptors whose path starts with this fail (required;
 *                          without it the shim changes nothing)
 *   STONEMATE_FAULT_CALLS  comma-separated calls that count: write, pwrite (also
 *                          pwrite64), writev, pwritev, fsync, fdatasync, sync_file_range,
 *                          ftruncate; default "fsync,fdatasync"
 *   STONEMATE_FAULT_NTH    the first matching call to fail, counted from 1 (default 1)
 *   STONEMATE_FAULT_TIMES  how many matching calls fail from there; 0: all (default 1)
 *   STONEMATE_FAULT_ERRNO  EIO (default) or ENOSPC
 *   STONEMATE_FAULT_ARMED_BY  if set, calls count only while this file exists
 *
 * Each injected failure is reported on standard error ("stonemate-fault: ..."). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *fault_path;
static size_t fault_path_len;
static char fault_calls[256] = "fsync,fdatasync";
static long nth = 1, times = 1;
static int fault_errno = EIO;
static const char *armed_by;
static atomic_long matched;

static void configure(void) {
    const char *value;
    fault_path = getenv("STONEMATE_FAULT_PATH");
    fault_path_len = fault_path ? strlen(fault_path) : 0;
    if ((value = getenv("STONEMATE_FAULT_CALLS")))
        snprintf(fault_calls, sizeof fault_calls, "%s", value);
    if ((value = getenv("STONEMATE_FAULT_NTH")))
        nth = atol(value);
    if ((value = getenv("STONEMATE_FAULT_TIMES")))
        times = atol(value);
    if ((value = getenv("STONEMATE_FAULT_ERRNO")) && strcmp(value, "ENOSPC") == 0)
        fault_errno = ENOSPC;
    armed_by = getenv("STONEMATE_FAULT_ARMED_BY");
}

/* Whether `call` is listed as a whole word in STONEMATE_FAULT_CALLS. */
static int listed(const char *call) {
    size_t len = strlen(call);
    for (const char *at = fault_calls; (at = strstr(at, call)); at += len) {
        int starts = at == fault_calls || at[-1] == ',';
        int ends = at[len] == '\0' || at[len] == ',';
        if (starts && ends)
            return 1;
    }
    return 0;
}

/* Whether this call on `fd` is one to fail; counts it if it matches. errno is kept. */
static int should_fail(const char *call, int fd) {
    pthread_once(&once, configure);
    if (!fault_path_len || !listed(call))
        return 0;
    int saved = errno;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t len = readlink(link, path, sizeof path - 1);
    int fail = 0;
    if (len > 0 && (size_t)len >= fault_path_len && strncmp(path, fault_path, fault_path_len) == 0
        && (!armed_by || access(armed_by, F_OK) == 0)) {
        path[len] = '\0';
        long n = atomic_fetch_add(&matched, 1) + 1;
        fail = n >= nth && (times == 0 || n < nth + times);
        if (fail)
            fprintf(stderr, "stonemate-fault: failing %s #%ld on %s with %s\n", call, n, path,
                    fault_errno == ENOSPC ? "ENOSPC" : "EIO");
    }
    errno = saved;
    return fail;
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
#define FAIL(call, fd) \
    if (should_fail(call, fd)) { \
        errno = fault_errno; \
        return -1; \
    }

ssize_t write(int fd, const void *buf, size_t count) {
    FAIL("write", fd);
    return NEXT(write)(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    FAIL("pwrite", fd);
    return NEXT(pwrite)(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
    FAIL("pwrite", fd);
    return NEXT(pwrite64)(fd, buf, count, offset);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    FAIL("writev", fd);
    return NEXT(writev)(fd, iov, iovcnt);
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset) {
    FAIL("pwritev", fd);
    return NEXT(pwritev)(fd, iov, iovcnt, offset);
}

int fsync(int fd) {
    FAIL("fsync", fd);
    return NEXT(fsync)(fd);
}

int fdatasync(int fd) {
    FAIL("fdatasync", fd);
    return NEXT(fdatasync)(fd);
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
    FAIL("sync_file_range", fd);
    return NEXT(sync_file_range)(fd, offset, nbytes, flags);
}

int ftruncate(int fd, off_t length) {
    FAIL("ftruncate", fd);
    return NEXT(ftruncate)(fd, length);
}

int ftruncate64(int fd, off64_t length) {
    FAIL("ftruncate", fd);
    return NEXT(ftruncate64)(fd, length);
}
