// FMStdio has only inline functions (include/FMStdio.h); a C target needs one source file.
#include "FMStdio.h"
