#include "CCurlShim.h"

CURLcode ownerdash_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ownerdash_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ownerdash_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ownerdash_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ownerdash_curl_setopt_write_function(CURL *handle,
    size_t (*callback)(char *data, size_t size, size_t count, void *context)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ownerdash_curl_setopt_header_function(CURL *handle,
    size_t (*callback)(char *data, size_t size, size_t count, void *context)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
CURLcode ownerdash_curl_setopt_read_function(CURL *handle,
    size_t (*callback)(char *buffer, size_t size, size_t count, void *context)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
CURLcode ownerdash_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ownerdash_curl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLMcode ownerdash_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
