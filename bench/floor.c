/* The physical floor of a crash-safe edit: the least work any tool that replaces one
 * unique snippet of a file durably must do. Open and read the file, find the snippet
 * once (memmem) and refuse a second occurrence, write the result to an O_TMPFILE in the
 * same directory, fsync it, link it in under a temporary name and rename it over the
 * file, fsync the directory. No lock, no digest, no envelope, no diff: those are
 * stitch's own work, measured against this.
 *
 * With JOURNAL (a directory), it is the floor of a journaled edit as well: before the
 * publish, the replaced inode is hard-linked under JOURNAL/pending/ and an entry of the
 * size of stitch's (480 bytes, none of it computed) is created beside it and
 * fdatasync'd, and that directory is fsync'd, so that the change can never happen
 * without its record; after the directory's fsync, both are renamed out of pending/
 * (entries/, objects/), unsynced. That is one new inode, a hard link and two device
 * flushes on top of the plain floor: the least any tool that can take an edit back,
 * across processes and crashes, must do.
 *
 * MODE (with JOURNAL) picks a candidate layout of the journal, to measure each at its
 * floor: `file` (the default, as above: the syncs one after another), `parallel` (the
 * new file's fsync, the entry's fdatasync and pending/'s fsync issued at once, on three
 * threads, joined before the publish: what stitch does), `log` (the entry appended to
 * one log file that already exists, JOURNAL/log, so no new inode and no rename for it;
 * the kept inode's link still needs pending/'s fsync), `log-parallel` (both), and
 * `log-copy` (the entry and the replaced version's bytes appended to JOURNAL/log, synced
 * beside the new file on a thread: no link, no new inode, no directory synced before the
 * publish; what a journal whose small kept versions live in its log would cost).
 *
 *   floor FILE OLD NEW [JOURNAL [MODE]]   exit 0 edited, 1 not found or not unique, 2 error
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what) {
    perror(what);
    return 2;
}

/* A sync on a thread of its own: the descriptor, whether only its data, the result. */
struct sync_job {
    pthread_t thread;
    int fd, data_only, result;
};

static void *run_sync(void *arg) {
    struct sync_job *job = arg;
    job->result = job->data_only ? fdatasync(job->fd) : fsync(job->fd);
    return NULL;
}

static void start_sync(struct sync_job *job, int fd, int data_only) {
    job->fd = fd;
    job->data_only = data_only;
    if (pthread_create(&job->thread, NULL, run_sync, job) != 0) {
        job->thread = 0;
        run_sync(job);
    }
}

static int join_sync(struct sync_job *job) {
    if (job->thread) pthread_join(job->thread, NULL);
    return job->result;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: floor FILE OLD NEW [JOURNAL [MODE]]\n");
        return 2;
    }
    const char *mode = argc == 6 ? argv[5] : "file";
    int copy = strcmp(mode, "log-copy") == 0;
    int parallel = copy || strstr(mode, "parallel") != NULL, log = strncmp(mode, "log", 3) == 0;
    if (!parallel && !log && strcmp(mode, "file") != 0) {
        fprintf(stderr, "floor: no mode %s (file, parallel, log, log-parallel, log-copy)\n", mode);
        return 2;
    }
    if (argc == 6) argc = 5;
    const char *path = argv[1], *old = argv[2], *new = argv[3];
    size_t old_len = strlen(old), new_len = strlen(new);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("open");
    struct stat st;
    if (fstat(fd, &st) != 0) return fail("fstat");
    char *buf = malloc(st.st_size + 1);
    if (!buf) return fail("malloc");
    ssize_t got = 0;
    while (got < st.st_size) {
        ssize_t n = read(fd, buf + got, st.st_size - got);
        if (n < 0) return fail("read");
        if (n == 0) break;
        got += n;
    }
    close(fd);
    char *at = memmem(buf, got, old, old_len);
    if (!at) return 1;
    if (memmem(at + 1, got - (at - buf) - 1, old, old_len)) return 1;

    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash) {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    } else {
        strcpy(dir, ".");
    }
    int tmp = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, st.st_mode & 07777);
    if (tmp < 0) return fail("open O_TMPFILE");
    size_t head = at - buf;
    if (write(tmp, buf, head) != (ssize_t)head) return fail("write");
    if (write(tmp, new, new_len) != (ssize_t)new_len) return fail("write");
    size_t tail = got - head - old_len;
    if (write(tmp, at + old_len, tail) != (ssize_t)tail) return fail("write");
    struct sync_job made = {0};
    if (argc == 5 && parallel) {
        start_sync(&made, tmp, 0);
    } else if (fsync(tmp) != 0) {
        return fail("fsync");
    }
    char name[64];
    int jfd = -1;
    if (argc == 5) {
        /* A name no other run has: the process id and the time. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        snprintf(name, sizeof name, "%ld%09ld-%d", (long)now.tv_sec, now.tv_nsec, (int)getpid());
        jfd = open(argv[4], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int pending = jfd < 0 ? -1 : openat(jfd, "pending", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (pending < 0) { /* the first run makes the journal */
            mkdir(argv[4], 0755);
            jfd = open(argv[4], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (jfd < 0) return fail("open journal");
            mkdirat(jfd, "pending", 0755);
            mkdirat(jfd, "entries", 0755);
            mkdirat(jfd, "objects", 0755);
            pending = openat(jfd, "pending", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        }
        if (pending < 0) return fail("open pending");
        char kept[80];
        snprintf(kept, sizeof kept, "%s.old", name);
        if (!copy && linkat(AT_FDCWD, path, pending, kept, 0) != 0) return fail("linkat kept");
        char entry[80], record[480];
        snprintf(entry, sizeof entry, "%s.entry", name);
        memset(record, 'e', sizeof record);
        int efd = log ? openat(jfd, "log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)
                      : openat(pending, entry, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (efd < 0) return fail("open entry");
        if (write(efd, record, sizeof record) != (ssize_t)sizeof record) return fail("write entry");
        if (copy) {
            /* The version before, copied after its entry: one write, one data sync. */
            if (write(efd, buf, got) != got) return fail("write kept");
            struct sync_job data = {0};
            start_sync(&data, efd, 1);
            if (join_sync(&data) != 0) return fail("fdatasync log");
            if (join_sync(&made) != 0) return fail("fsync");
        } else if (parallel) {
            struct sync_job data = {0};
            start_sync(&data, efd, 1);
            int named = fsync(pending);
            if (join_sync(&data) != 0) return fail("fdatasync entry");
            if (named != 0) return fail("fsync pending");
            if (join_sync(&made) != 0) return fail("fsync");
        } else {
            if (fdatasync(efd) != 0) return fail("fdatasync entry");
            if (fsync(pending) != 0) return fail("fsync pending");
        }
        close(efd);
        close(pending);
    }
    char proc[64], staged[4200];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", tmp);
    snprintf(staged, sizeof staged, "%s.floor-%d", path, (int)getpid());
    if (linkat(AT_FDCWD, proc, AT_FDCWD, staged, AT_SYMLINK_FOLLOW) != 0) return fail("linkat");
    if (rename(staged, path) != 0) return fail("rename");
    close(tmp);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return fail("open dir");
    if (fsync(dfd) != 0) return fail("fsync dir");
    close(dfd);
    if (jfd >= 0) {
        char from[96], to[96];
        if (!log) {
            snprintf(from, sizeof from, "pending/%s.entry", name);
            snprintf(to, sizeof to, "entries/%s.entry", name);
            if (renameat(jfd, from, jfd, to) != 0) return fail("rename entry");
        }
        snprintf(from, sizeof from, "pending/%s.old", name);
        snprintf(to, sizeof to, "objects/%s", name);
        if (!copy && renameat(jfd, from, jfd, to) != 0) return fail("rename kept");
        close(jfd);
    }
    return 0;
}
