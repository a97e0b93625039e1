#ifndef FMSPAWN_H
#define FMSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and exactly `envp` as the leader of a new process group, with default
/// signal dispositions, an empty signal mask, stdin from `stdin_fd` (-1: /dev/null), stdout and stderr
/// to `stdout_fd` and `stderr_fd`, in `directory` (NULL: the caller's). On Linux the child gets SIGKILL
/// when the thread that started it ends, so it never outlives fmeval, however fmeval ends (a child
/// that calls setsid() or ignores SIGTERM included). Returns 0 and sets `*pid`, or an errno value when
/// the program could not be started (nothing is left running then).
int fms_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd, const char *directory);

/// Makes this process the reaper of its orphaned descendants (Linux's PR_SET_CHILD_SUBREAPER), so a
/// command's child that left its parent (a daemon, a setsid() child) can still be found and ended.
/// Returns 0, or an errno value (ENOSYS off Linux).
int fms_adopt_orphans(void);

#endif
