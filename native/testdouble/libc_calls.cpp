// The double links the aids' sources (connect_guard.cpp, node_hearing.cpp) for the scopes the
// connector sets, but no link-time wrap: their __real_ calls are libc's own, and their __wrap_
// functions are never called. So nothing in the double rests on a wrap, and none can stop engaging.
#include <sys/socket.h>
#include <unistd.h>

extern "C" int __real_connect(int fd, const struct sockaddr *addr, socklen_t len) { return connect(fd, addr, len); }
extern "C" ssize_t __real_recv(int fd, void *buf, size_t len, int flags) { return recv(fd, buf, len, flags); }
extern "C" ssize_t __real_recvmsg(int fd, struct msghdr *msg, int flags) { return recvmsg(fd, msg, flags); }
extern "C" int __real_close(int fd) { return close(fd); }
