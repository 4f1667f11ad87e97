/*
 * terminal.exe COMMAND-LINE starts a program as cmd.exe starts a GUI
 * program on Windows, without standard handles, in this console, and
 * waits for it, exiting as it exits. Wine gives a GUI program its
 * parent's handles even when told to inherit none, so the smoke test
 * runs elicitdesk.exe through this to see it print to the terminal it was
 * started from all the same (package internal/console).
 */
#include <windows.h>

int wmain(void)
{
	STARTUPINFOW si = {sizeof si};
	PROCESS_INFORMATION pi;
	DWORD code = 1;
	LPWSTR line = GetCommandLineW();

	/* skip this program's own name, quoted or not, and the blanks after it */
	if (*line == L'"') {
		for (line++; *line && *line != L'"'; line++)
			;
		if (*line)
			line++;
	} else {
		while (*line && *line != L' ' && *line != L'\t')
			line++;
	}
	while (*line == L' ' || *line == L'\t')
		line++;

	si.dwFlags = STARTF_USESTDHANDLES; /* and every handle NULL */
	if (!CreateProcessW(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi))
		return 127;
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	return (int)code;
}
