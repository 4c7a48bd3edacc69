/*
 * empty_hooks.c - empty -finstrument-functions hooks: the floor every
 * function tracer pays (a call to each hook on enter and exit). Linked into
 * the "empty hooks" build of the bench programs; never instrumented itself.
 */
void __cyg_profile_func_enter(void *fn, void *site)
    __attribute__((no_instrument_function, noinline));
void __cyg_profile_func_exit(void *fn, void *site)
    __attribute__((no_instrument_function, noinline));

void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)fn;
    (void)site;
    __asm__ volatile("" ::: "memory");
}

void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
    __asm__ volatile("" ::: "memory");
}
