/* metadata.h: the core's answers from the VM's records (threadinfo.c,
 * classinfo.c, objectinfo.c): what the port asks of them. No state per
 * environment. */
#ifndef JVMTIRT_METADATA_H
#define JVMTIRT_METADATA_H

/* 0 when the function called name is one of these files' and the VM did not
 * supply the operation it needs (it answers NOT_AVAILABLE, so the port
 * reports it as a default); 1 otherwise. */
int rt_metadata_supplied(const char *function);

#endif
