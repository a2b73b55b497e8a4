/*
 * A stand-in for Windows' bcryptprimitives.dll, for running Go programs
 * under Wine 8 (Debian 12), which lacks it. Go 1.24 and later need its
 * ProcessPrng at start-up; every Windows 10 and 11 has the real one. The
 * dist check copies this DLL into its throw-away Wine prefix only; it is
 * never shipped.
 *
 * ProcessPrng fills a buffer from the system random number generator
 * (RtlGenRandom, exported by advapi32 as SystemFunction036).
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
