/* version: the git description baked in at build time. */
#include "version.h"

#ifndef DFSIM_VERSION
#define DFSIM_VERSION "unknown"
#endif

const char dfsim_version[] = DFSIM_VERSION;
