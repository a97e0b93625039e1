// The one place fmeval forks. On Linux each command runs below a keeper process that ends everything
// the command started when the command exits or fmeval ends, which posix_spawn cannot do. The keeper
// never execs, so it (like the command before its exec) calls only async-signal-safe functions.
#define _GNU_SOURCE
#include "FMSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

static void report_and_exit(int report, int code) {
    ssize_t ignored = write(report, &code, sizeof code);
    (void)ignored;
    _exit(127);
}

// Moves a descriptor below 3 out of the way, so the dup2 calls below cannot overwrite a source.
static int above_standard(int fd, int report) {
    if (fd < 0 || fd > 2) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (moved < 0) report_and_exit(report, errno);
    return moved;
}

// The command itself, below its keeper: dies with the keeper, takes the pipes, and execs.
static void command(pid_t keeper, const char *path, char *const argv[], char *const envp[],
                    int stdin_fd, int stdout_fd, int stderr_fd, const char *directory, int report) {
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) report_and_exit(report, errno);
    if (getppid() != keeper) _exit(127);
#else
    (void)keeper;
#endif
    if (stdin_fd < 0) {
        stdin_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (stdin_fd < 0) report_and_exit(report, errno);
    }
    stdin_fd = above_standard(stdin_fd, report);
    stdout_fd = above_standard(stdout_fd, report);
    stderr_fd = above_standard(stderr_fd, report);
    if (dup2(stdin_fd, 0) < 0 || dup2(stdout_fd, 1) < 0 || dup2(stderr_fd, 2) < 0) report_and_exit(report, errno);
    if (directory != NULL && chdir(directory) != 0) report_and_exit(report, errno);
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    execve(path, argv, envp);
    report_and_exit(report, errno);
}

#ifdef __linux__
// The signal the kernel sends the keeper when fmeval ends: one no command has a reason to send.
#define KEEPER_DEATH_SIGNAL (SIGRTMAX)

static pid_t fork_single_threaded(void) {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34)
    return _Fork();
#else
    return fork();
#endif
}

// Writes the decimal digits of `value` after `out`; returns the end.
static char *append_number(char *out, long value) {
    char digits[24];
    int count = 0;
    do { digits[count++] = (char)('0' + value % 10); value /= 10; } while (value > 0);
    while (count > 0) *out++ = digits[--count];
    return out;
}

// Whether process `pid`'s parent is `parent`, from field 4 of /proc/PID/stat (read after the name's
// last ')', since the name may hold spaces and parentheses).
static int is_child_of(long pid, pid_t parent) {
    char path[48] = "/proc/";
    char *end = append_number(path + 6, pid);
    memcpy(end, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[1024];
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return 0;
    text[count] = '\0';
    char *close_paren = NULL;
    for (char *c = text; *c; c++) if (*c == ')') close_paren = c;
    if (close_paren == NULL || close_paren[1] != ' ' || close_paren[2] == '\0' || close_paren[3] != ' ') return 0;
    long found = 0;
    for (char *c = close_paren + 4; *c >= '0' && *c <= '9'; c++) found = found * 10 + (*c - '0');
    return found == (long)parent;
}

struct linux_dirent64_record {
    unsigned long long inode;
    long long offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

// Sends SIGKILL to every child of this process, found by a walk of /proc with raw system calls (no
// allocation: the keeper is a fork of a threaded process that never execs).
static void kill_children(void) {
    int directory = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return;
    pid_t self = getpid();
    char buffer[8192];
    long count;
    while ((count = syscall(SYS_getdents64, directory, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < count;) {
            struct linux_dirent64_record *entry = (struct linux_dirent64_record *)(buffer + at);
            at += entry->length;
            long pid = 0;
            const char *c = entry->name;
            for (; *c >= '0' && *c <= '9'; c++) pid = pid * 10 + (*c - '0');
            if (*c != '\0' || pid <= 0 || !is_child_of(pid, self)) continue;
            kill((pid_t)pid, SIGKILL);
        }
    }
    close(directory);
}

// Ends every process below the keeper: the command's orphans were reparented to it (it is their
// subreaper), and each killed child's own children come to it in turn, so rounds go on until it has
// no child left.
static void end_descendants(void) {
    for (;;) {
        kill_children();
        int status;
        pid_t reaped;
        while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) {}
        if (reaped < 0 && errno == ECHILD) return;
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
}

// Closes every open descriptor: the keeper never execs, so close-on-exec does not apply to it, and a
// pipe end it kept (another command's, or its own command's stdin) would hold that pipe open.
static void close_every_descriptor(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 0, ~0U, 0) == 0) return;
#endif
    struct rlimit limit;
    long top = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (long)limit.rlim_cur : 65536;
    for (long fd = 0; fd < top; fd++) close((int)fd);
}

// Leaves as the command left: its exit status, or its signal (without a core file).
static void exit_like(int status) {
    if (WIFSIGNALED(status)) {
        int signal = WTERMSIG(status);
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signal);
        kill(getpid(), signal);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        _exit(128 + signal);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

// The keeper: leads the command's process group, is the subreaper of everything the command starts,
// and ends all of it when the command exits or when fmeval ends (the parent-death signal), so no
// descendant outlives fmeval, a setsid() daemon of a command included, even when fmeval gets SIGKILL.
static void keeper(pid_t parent, const char *path, char *const argv[], char *const envp[],
                   int stdin_fd, int stdout_fd, int stderr_fd, const char *directory, int report) {
    if (prctl(PR_SET_PDEATHSIG, KEEPER_DEATH_SIGNAL) != 0) report_and_exit(report, errno);
    // fmeval may have ended between fork and prctl: then no signal will come, so stop here.
    if (getppid() != parent) _exit(127);
    if (setpgid(0, 0) != 0) report_and_exit(report, errno);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) report_and_exit(report, errno);
    pid_t self = getpid();
    pid_t started = fork_single_threaded();
    if (started == 0) command(self, path, argv, envp, stdin_fd, stdout_fd, stderr_fd, directory, report);
    if (started < 0) report_and_exit(report, errno);
    close_every_descriptor();
    sigset_t waited;
    sigemptyset(&waited);
    sigaddset(&waited, SIGCHLD);
    sigaddset(&waited, KEEPER_DEATH_SIGNAL);
    for (;;) {
        siginfo_t info;
        int received = sigwaitinfo(&waited, &info);
        if (received == KEEPER_DEATH_SIGNAL) {
            end_descendants();
            _exit(137);
        }
        int status;
        pid_t reaped;
        while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) {
            if (reaped != started) continue;
            end_descendants();
            exit_like(status);
        }
    }
}
#endif

static void child(pid_t parent, const char *path, char *const argv[], char *const envp[],
                  int stdin_fd, int stdout_fd, int stderr_fd, const char *directory, int report) {
    struct sigaction defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &defaults, NULL);
    }
#ifdef __linux__
    keeper(parent, path, argv, envp, stdin_fd, stdout_fd, stderr_fd, directory, report);
#else
    (void)parent;
    if (setpgid(0, 0) != 0) report_and_exit(report, errno);
    command(getppid(), path, argv, envp, stdin_fd, stdout_fd, stderr_fd, directory, report);
#endif
}

int fms_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd, const char *directory) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    sigset_t all, previous;
    sigfillset(&all);
    // No handler of fmeval's may run in the child before its dispositions are reset.
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    pid_t started = fork();
    if (started == 0) child(parent, path, argv, envp, stdin_fd, stdout_fd, stderr_fd, directory, report[1]);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (started < 0) {
        close(report[0]);
        return saved;
    }
    int code = 0;
    ssize_t count;
    do { count = read(report[0], &code, sizeof code); } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof code) {
        int status;
        while (waitpid(started, &status, 0) < 0 && errno == EINTR) {}
        return code != 0 ? code : ECHILD;
    }
    *pid = started;
    return 0;
}
