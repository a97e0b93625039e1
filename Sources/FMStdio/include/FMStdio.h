// FMStdio: C's standard streams as functions. Swift 6 rejects reading C's global `stdout` variable
// (shared mutable state); the C library sets it before `main` and never changes it, so a function
// returning it is safe to call from any thread.
#pragma once
#include <stdio.h>

/// C's standard output stream (the one Swift's `print` writes to).
static inline FILE *fms_standard_output(void) { return stdout; }
