#ifndef OWNERDASH_CCURLSHIM_H
#define OWNERDASH_CCURLSHIM_H
// curl_easy_setopt / curl_easy_getinfo are variadic, which Swift cannot call:
// one typed wrapper per argument type.
#include <curl/curl.h>

CURLcode ownerdash_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ownerdash_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ownerdash_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ownerdash_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ownerdash_curl_setopt_write_function(CURL *handle,
    size_t (*callback)(char *data, size_t size, size_t count, void *context));
CURLcode ownerdash_curl_setopt_header_function(CURL *handle,
    size_t (*callback)(char *data, size_t size, size_t count, void *context));
CURLcode ownerdash_curl_setopt_read_function(CURL *handle,
    size_t (*callback)(char *buffer, size_t size, size_t count, void *context));
CURLcode ownerdash_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ownerdash_curl_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLMcode ownerdash_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
