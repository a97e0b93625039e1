// FMKernels: innermost quantized dot-product kernels with run-time CPU dispatch.
#pragma once
