#include "c/core.h"

#include <stdlib.h>
#include <string.h>

/* Sorted (strcmp) for bsearch. */
static const char *const core_functions[] = {
    "AddCapabilities",
    "AddToBootstrapClassLoaderSearch",
    "AddToSystemClassLoaderSearch",
    "Allocate",
    "ClearAllFramePops",
    "ClearBreakpoint",
    "ClearFieldAccessWatch",
    "ClearFieldModificationWatch",
    "CreateRawMonitor",
    "Deallocate",
    "DestroyRawMonitor",
    "DisposeEnvironment",
    "FollowReferences",
    "GenerateEvents",
    "GetAllStackTraces",
    "GetAvailableProcessors",
    "GetCapabilities",
    "GetClassLoaderClasses",
    "GetCurrentThreadCpuTime",
    "GetCurrentThreadCpuTimerInfo",
    "GetEnvironmentLocalStorage",
    "GetErrorName",
    "GetExtensionEvents",
    "GetExtensionFunctions",
    "GetFrameCount",
    "GetFrameLocation",
    "GetJLocationFormat",
    "GetJNIFunctionTable",
    "GetLoadedClasses",
    "GetObjectsWithTags",
    "GetPhase",
    "GetPotentialCapabilities",
    "GetStackTrace",
    "GetSystemProperties",
    "GetSystemProperty",
    "GetTag",
    "GetThreadCpuTime",
    "GetThreadCpuTimerInfo",
    "GetThreadListStackTraces",
    "GetThreadLocalStorage",
    "GetTime",
    "GetTimerInfo",
    "GetVersionNumber",
    "IterateOverHeap",
    "IterateOverInstancesOfClass",
    "IterateOverObjectsReachableFromObject",
    "IterateOverReachableObjects",
    "IterateThroughHeap",
    "NotifyFramePop",
    "RawMonitorEnter",
    "RawMonitorExit",
    "RawMonitorNotify",
    "RawMonitorNotifyAll",
    "RawMonitorWait",
    "RelinquishCapabilities",
    "ResumeAllVirtualThreads",
    "ResumeThread",
    "ResumeThreadList",
    "SetBreakpoint",
    "SetEnvironmentLocalStorage",
    "SetEventCallbacks",
    "SetEventNotificationMode",
    "SetExtensionEventCallback",
    "SetFieldAccessWatch",
    "SetFieldModificationWatch",
    "SetJNIFunctionTable",
    "SetNativeMethodPrefix",
    "SetNativeMethodPrefixes",
    "SetSystemProperty",
    "SetTag",
    "SetThreadLocalStorage",
    "SetVerboseFlag",
    "SuspendAllVirtualThreads",
    "SuspendThread",
    "SuspendThreadList",
};

static int cmp(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

bool core_implements(const char *function_id)
{
    return bsearch(function_id, core_functions, sizeof core_functions / sizeof *core_functions,
                   sizeof *core_functions, cmp) != NULL;
}
