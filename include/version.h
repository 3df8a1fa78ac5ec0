/* version: the build's version string (git describe) and the result schema number. */
#ifndef DFSIM_VERSION_H
#define DFSIM_VERSION_H

#define DFSIM_SCHEMA 1

extern const char dfsim_version[];

#endif
