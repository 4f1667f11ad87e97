/*
 * uiautomationcore.dll for Wine 8, whose UiaRaiseStructureChangedEvent is
 * a stub that aborts the program calling it: Fyne built with the
 * accessibility tag, as the release is, calls it as soon as a window's
 * content changes. This one has the five functions Fyne looks up, each
 * doing nothing and succeeding, so under Wine, where no screen reader
 * listens, the release runs with UI Automation inert. Windows has its own.
 * `make windows-check` builds it with mingw-w64 into its Wine prefix.
 */
#include <windows.h>

__declspec(dllexport) LRESULT WINAPI UiaReturnRawElementProvider(HWND hwnd, WPARAM wParam, LPARAM lParam, void *provider)
{
	return 0;
}

__declspec(dllexport) HRESULT WINAPI UiaHostProviderFromHwnd(HWND hwnd, void **provider)
{
	*provider = NULL;
	return S_OK;
}

__declspec(dllexport) HRESULT WINAPI UiaRaiseAutomationEvent(void *provider, int id)
{
	return S_OK;
}

__declspec(dllexport) HRESULT WINAPI UiaRaiseStructureChangedEvent(void *provider, int type, int *runtimeId, int count)
{
	return S_OK;
}

__declspec(dllexport) HRESULT WINAPI UiaDisconnectProvider(void *provider)
{
	return S_OK;
}
