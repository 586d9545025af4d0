/*
 * bcryptprimitives.dll shim for running Rust (>= 1.78) Windows binaries under Wine 8.
 *
 * Rust's std takes its random bytes (HashMap seeds) from ProcessPrng in bcryptprimitives.dll,
 * which Wine 8 does not have, so the .exe fails to load. This DLL exports that one function and
 * fills the buffer from RtlGenRandom (exported by advapi32 as SystemFunction036).
 * scripts/windows/runner.sh builds it with x86_64-w64-mingw32-gcc and puts it beside the .exe.
 * On x86_64 there is no name decoration, so dllexport alone gives the plain name: no .def file.
 */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom, i.e. SystemFunction036 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    /* RtlGenRandom takes a ULONG (32-bit) length: feed it in chunks. */
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE; /* Windows' ProcessPrng always succeeds; std ignores the result. */
}
