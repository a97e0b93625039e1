// The one place fmeval forks: a child that sets its parent-death signal before it execs, which
// posix_spawn cannot do. Between fork and exec the child calls only async-signal-safe functions.
#define _GNU_SOURCE
#include "FMSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
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

static void child(pid_t parent, const char *path, char *const argv[], char *const envp[],
                  int stdin_fd, int stdout_fd, int stderr_fd, const char *directory, int report) {
    struct sigaction defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &defaults, NULL);
    }
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) report_and_exit(report, errno);
    // fmeval may have ended between fork and prctl: then no signal will come, so stop here.
    if (getppid() != parent) _exit(127);
#else
    (void)parent;
#endif
    if (setpgid(0, 0) != 0) report_and_exit(report, errno);
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

int fms_adopt_orphans(void) {
#ifdef PR_SET_CHILD_SUBREAPER
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}
