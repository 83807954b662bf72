/* The port: how this VM wires the runtime core in (runtime/README.md,
 * "Porting"). One jvmtirt_config says what the VM can do (its potential
 * capabilities), how the core asks it (its operations: each file adds its
 * own in its configure) and which JVM TI functions it implements itself
 * (a jvmtirt_impl_table); jvmtirt_init takes it, once, before any agent
 * loads. Then the classes the VM starts with, its extensions and its
 * system properties. */
#include "hooks.h"
#include "host.h"
#include "jvmtigen_impl.h"
#include "jvmtirt.h"

int host_port_init(void)
{
    /* kept: the core reads them while the process runs */
    static jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    static jvmtirt_config config = JVMTIRT_CONFIG_INIT;
    impls.ForceGarbageCollection = host_force_gc; /* objects.c */
    config.impls = &impls;
    config.object_ref = host_object_ref;
    config.potential.can_tag_objects = 1;                  /* the core's, over objects.c */
    config.potential.can_generate_object_free_events = 1;
    config.potential.can_generate_garbage_collection_events = 1;
    config.potential.can_get_current_thread_cpu_time = 1;  /* the core's */
    config.potential.can_get_thread_cpu_time = 1;
    config.potential.can_generate_compiled_method_load_events = 1; /* none ever come */
    config.potential.can_signal_thread = 1;
    config.onload_only.can_signal_thread = 1;
    config.potential.can_suspend = 1;                      /* suspend.c */
    config.suspend_thread = host_suspend_thread;
    config.resume_thread = host_resume_thread;
    config.potential.can_get_source_file_name = 1;         /* the core's, over class_info */
    config.potential.can_access_local_variables = 1;       /* the core's, over frame_slot (stacks.c) */
    config.local_type = jvmtirt_class_local_type;          /* the declared types: the core's tables */
    config.potential.can_pop_frame = 1;                    /* and frame_return: the main chain's */
    config.potential.can_force_early_return = 1;
    config.potential.can_get_line_numbers = 1;             /* the core's, from the class files */
    config.potential.can_get_bytecodes = 1;
    /* The rest of what libjdwp cannot start without (tests/jdb): the core's
     * metadata answers the debug extension and the class file's order of
     * methods; exceptions and monitor events never happen in the host's
     * programs (see README.md). */
    config.potential.can_get_source_debug_extension = 1;
    config.potential.can_maintain_original_method_order = 1;
    config.potential.can_get_constant_pool = 1;
    config.potential.can_get_synthetic_attribute = 1;
    config.potential.can_generate_exception_events = 1;
    config.potential.can_generate_monitor_events = 1;
#ifdef JVMTIGEN_HAS_can_support_virtual_threads /* JVM TI 21 on */
    /* The host has no virtual threads: SuspendAllVirtualThreads and
     * ResumeAllVirtualThreads act on none (no thread_is_virtual), and
     * VirtualThreadStart and VirtualThreadEnd, which may be enabled, never
     * come; JDK 25's libjdwp asks for it. */
    config.potential.can_support_virtual_threads = 1;
#endif
    host_threads_configure(&config);                       /* lifecycle.c */
    host_classes_configure(&config);                       /* classes.c */
    host_frames_configure(&config, host_jni_functions());  /* frames.c: steps, entries, exits */
    host_stacks_configure(&config);                        /* stacks.c */
    host_monitors_configure(&config);                      /* monitors.c, after stacks.c */
    host_modules_configure(&config);                       /* modules.c */
    host_heap_configure(&config);                          /* heap.c */
    host_groups_configure(&config);                        /* groups.c */
    const host_hooks *h = host_hooks_get();
    if (h->configure)
        h->configure(&config);
    if (jvmtirt_init(&config) != JVMTI_ERROR_NONE || !host_classes_describe())
        return 0;
    host_extensions_setup();
    if (h->initialized)
        h->initialized();
    jvmtirt_property_define("java.vm.name", "jvmti-host", 0);
    jvmtirt_property_define("java.vm.vendor", "jvmtigen", 0);
    jvmtirt_property_define("java.class.path", ".", 1);
    host_java_home_setup(); /* java.home, sun.boot.library.path, ... (javahome.c) */
    return 1;
}
