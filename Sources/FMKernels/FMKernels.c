#include "FMKernels.h"
