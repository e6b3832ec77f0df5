// The libcurl functions Mooncake's archives call (nm -u; its HTTP metadata plugin), forwarded to
// the system's libcurl.so.4 (see lazy_library.h).
#define CURL_DISABLE_TYPECHECK  // its checking macros would rename curl_easy_setopt/getinfo
#include <cstdarg>

#include <curl/curl.h>

#include "lazy_library.h"

#define CURL_FN(ret, name, params, args, failed) KVT_FORWARD(curl, ret, name, params, args, failed)

CURL_FN(CURLcode, curl_global_init, (long flags), (flags), CURLE_FAILED_INIT)
CURL_FN(CURL *, curl_easy_init, (void), (), nullptr)
CURL_FN(CURLcode, curl_easy_perform, (CURL *curl), (curl), CURLE_FAILED_INIT)
CURL_FN(void, curl_easy_reset, (CURL *curl), (curl), )
CURL_FN(void, curl_easy_cleanup, (CURL *curl), (curl), )
CURL_FN(const char *, curl_easy_strerror, (CURLcode code), (code), "libcurl unavailable")
CURL_FN(char *, curl_easy_escape, (CURL *curl, const char *s, int length), (curl, s, length), nullptr)
CURL_FN(void, curl_free, (void *p), (p), )
CURL_FN(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *s), (list, s),
        nullptr)
CURL_FN(void, curl_slist_free_all, (struct curl_slist *list), (list), )

// The variadic two take exactly one more argument, a long, a pointer or a curl_off_t: all passed
// in one 64-bit integer register, so forwarding it as a pointer hands libcurl the same bits.
#define CURL_ONE_ARG_FORWARD(name, key_type)                                                  \
    extern "C" CURLcode name(CURL *curl, key_type key, ...) {                                 \
        static const auto real =                                                              \
            reinterpret_cast<CURLcode (*)(CURL *, key_type, ...)>(kvt_lazy::curl().symbol(#name)); \
        if (real == nullptr) return CURLE_FAILED_INIT;                                        \
        va_list ap;                                                                           \
        va_start(ap, key);                                                                    \
        void *arg = va_arg(ap, void *);                                                       \
        va_end(ap);                                                                           \
        return real(curl, key, arg);                                                          \
    }

CURL_ONE_ARG_FORWARD(curl_easy_setopt, CURLoption)
CURL_ONE_ARG_FORWARD(curl_easy_getinfo, CURLINFO)
