/*
 * bcryptprimitives.dll for Wine 8, which lacks it: Go 1.24 and later read
 * random bytes through its ProcessPrng at start-up, so without it no Go
 * program runs. This one forwards to BCryptGenRandom, which Wine has.
 * `make windows-check` builds it with mingw-w64 into its Wine prefix.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE; /* as on Windows, where it never fails */
}
