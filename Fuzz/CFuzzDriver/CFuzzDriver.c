// The module only declares LLVMFuzzerRunDriver (see include/CFuzzDriver.h); SwiftPM wants one source file.
#include "CFuzzDriver.h"
