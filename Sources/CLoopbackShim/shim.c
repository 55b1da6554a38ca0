// The shim is header-only; SwiftPM needs one C source file in a C target.
#include "CLoopbackShim.h"
