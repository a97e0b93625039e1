#ifndef FMSPAWN_H
#define FMSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and exactly `envp` in a new process group, with default signal
/// dispositions, an empty signal mask, stdin from `stdin_fd` (-1: /dev/null), stdout and stderr to
/// `stdout_fd` and `stderr_fd`, in `directory` (NULL: the caller's). On Linux `*pid` is the command's
/// keeper: it leads the group, exits as the command exits (same status or signal) once it has killed
/// whatever the command left running (a setsid() daemon included: the keeper is its subreaper), and
/// does the same when the thread that started it ends, so nothing outlives fmeval, however fmeval
/// ends. Returns 0 and sets `*pid`, or an errno value when the program could not be started (nothing
/// is left running then).
int fms_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd, const char *directory);

#endif
