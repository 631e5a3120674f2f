#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift cannot call: these
   typed wrappers are all OwnerDash uses of them. */

/* The limits of one daemon, each one MHD option. */
struct ownerdash_mhd_limits {
    unsigned int threads;           /* MHD_OPTION_THREAD_POOL_SIZE */
    unsigned int connections;       /* MHD_OPTION_CONNECTION_LIMIT */
    unsigned int connections_per_ip; /* MHD_OPTION_PER_IP_CONNECTION_LIMIT */
    unsigned int timeout_seconds;   /* MHD_OPTION_CONNECTION_TIMEOUT: idle (or slow) connections are closed */
    size_t connection_memory;       /* MHD_OPTION_CONNECTION_MEMORY_LIMIT: the request line and headers must fit */
};

/* Starts a daemon listening on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port), with an internal
   polling thread pool; with TLS (libmicrohttpd's GnuTLS) when `tls_key_pem` and `tls_cert_pem` are both given (PEM
   text, kept alive by the caller while the daemon runs). NULL when the address is not a literal or the daemon cannot
   start (port in use, a key that does not load, ...). */
static inline struct MHD_Daemon *ownerdash_mhd_start(const char *host, uint16_t port,
                                                     struct ownerdash_mhd_limits limits,
                                                     const char *tls_key_pem, const char *tls_cert_pem,
                                                     MHD_AccessHandlerCallback handler,
                                                     MHD_RequestCompletedCallback completed, void *context) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *address;
    /* MHD_USE_ITC: a connection handed over with MHD_add_connection (ownerdash_mhd_adopt) is served at once. */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    int tls = tls_key_pem != NULL && tls_cert_pem != NULL;
    if (tls) flags |= MHD_USE_TLS;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)limits.threads, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limits.connections, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)limits.connections_per_ip, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)limits.timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits.connection_memory, NULL },
        { MHD_OPTION_SOCK_ADDR, 0, address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, context },
        /* Last, so that without TLS the array simply ends before them. */
        { tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)tls_key_pem },
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert_pem },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon listens on (the one the system chose when started with port 0); 0 if unknown. */
static inline uint16_t ownerdash_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address as text into `buffer` (empty when unknown). */
static inline void ownerdash_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, size);
    }
}

/* Hands the daemon a socket connected elsewhere (one end of a socketpair), as if accepted from 127.0.0.1; the daemon
   owns and closes it. 0 when the daemon could not take it. */
static inline int ownerdash_mhd_adopt(struct MHD_Daemon *daemon, int socket) {
    struct sockaddr_in peer;
    memset(&peer, 0, sizeof peer);
    peer.sin_family = AF_INET;
    peer.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_add_connection(daemon, socket, (const struct sockaddr *)&peer, sizeof peer) == MHD_YES;
}
