package kqp.harness;

import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.utils.ExponentialBackoff;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * A connects workload (the simulator's {@code connects}, crates/quota-engine/src/sim/connects.rs) on real sockets:
 * each client opens a plain TCP connection to one broker's PLAINTEXT listener, sends one ApiVersionsRequest built
 * with Kafka's own classes (the newest version, size-prefixed as the protocol frames it, the connection's client.id)
 * and waits for either
 * <ul>
 * <li>the response: the broker accepted the connection (its acceptor handed it to a processor, which answered);
 * the client is ready when the whole response has arrived; or</li>
 * <li>end-of-stream or a connection reset: the broker refused it under connection_creation_rate (the acceptor
 * keeps such a socket unread as a DelayedCloseSocket for the throttle time and closes it on a later pass of its
 * loop, SocketServer.scala Acceptor.closeThrottledConnections); the close is seen then. The client connects again
 * after {@code new ExponentialBackoff(reconnect.backoff.ms, 2, reconnect.backoff.max.ms, 0.2).backoff(failedAttempts)}
 * from the close, failedAttempts counting from 0 and back to 0 once a connection is ready, as the Java client's
 * ClusterConnectionStates (updateReconnectBackoff / resetReconnectBackoff) does;</li>
 * <li>neither within {@link #ANSWER_TIMEOUT_MS}: an error of the repeat (the Java NetworkClient would time the
 * ApiVersions request out after its default request.timeout.ms, 30 s, and disconnect).</li>
 * </ul>
 * Pool: client k's first connect at t0 + start_ms + k x interval_ms; storm: at t0 + start_ms + backoff(0), with
 * failedAttempts then 1 (a connection dropped from READY); reopen: one client, one cycle after another (open, one
 * ApiVersions, close, wait interval_ms). Pool and storm clients run on their own threads, concurrently; a ready
 * connection stays open until the harness closes the workload after the run. Times are System.nanoTime.
 */
final class ConnectsRun extends ClientRun {
    /** How long a client waits for the answer or the close of one connection before the repeat fails. */
    static final long ANSWER_TIMEOUT_MS = 30_000;
    /** {@code NetworkClient}'s RECONNECT_BACKOFF_EXP_BASE and RECONNECT_BACKOFF_JITTER. */
    static final int BACKOFF_MULTIPLIER = 2;
    static final double BACKOFF_JITTER = 0.2;

    /**
     * One connection attempt. outcome: "ready" (answered), "closed" (end-of-stream or reset before an answer: a
     * refusal), "timeout", "error"; how: "answer", "eof", "reset", or the exception.
     */
    record Attempt(int client, int attempt, long connectNs, String outcome, String how, long atNs, long backoffMs) {}

    final ScenarioPlan.ConnectsSpec spec;
    final InetSocketAddress address;
    final int brokerId;
    final short version = ApiKeys.API_VERSIONS.latestVersion();
    private final ExponentialBackoff backoff;
    private final List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
    /** Sockets waiting for their answer or close (closed by {@link #stopNow} to unblock their reads). */
    private final java.util.Set<Socket> inflight = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Per client (pool, storm) or cycle (reopen): when it was ready (ns), 0 when not. */
    private final long[] readyNs;
    private final int[] attemptsOf;
    private final int[] refusalsOf;
    private volatile int clientsStarted;
    private volatile long firstConnectNs;

    ConnectsRun(ScenarioPlan.Workload w, Properties props, InetSocketAddress address, int brokerId, String principal,
                String src) {
        super(w, props.getProperty("client.id"), principal, src);
        this.spec = w.connects();
        this.address = address;
        this.brokerId = brokerId;
        this.backoff = new ExponentialBackoff(spec.reconnectBackoffMs(), BACKOFF_MULTIPLIER,
            spec.reconnectBackoffMaxMs(), BACKOFF_JITTER);
        this.readyNs = new long[spec.count()];
        this.attemptsOf = new int[spec.count()];
        this.refusalsOf = new int[spec.count()];
        // The broker sees the request header's client.id as it is (no client builds it, nothing generates one).
        this.effectiveClientId = configuredClientId;
    }

    /** The workload's nominal start: t0 + start_ms. */
    long startAtNs() {
        return t0Ns + w.startMs() * 1_000_000L;
    }

    @Override
    public void run() {
        startNs = startAtNs();
        try {
            if (spec.reopen()) {
                long due = startNs;
                for (int k = 0; k < spec.count() && !stopRequested && error == null; k++) {
                    clientsStarted = k + 1;
                    Socket s = client(k, due, 0);
                    if (s == null) break;
                    closeQuietly(s);
                    due = System.nanoTime() + spec.intervalMs() * 1_000_000L;
                }
            } else {
                List<Thread> threads = new ArrayList<>();
                for (int k = 0; k < spec.count(); k++) {
                    final int client = k;
                    long due = spec.storm() ? startNs + backoff.backoff(0) * 1_000_000L
                        : startNs + k * spec.intervalMs() * 1_000_000L;
                    int failed = spec.storm() ? 1 : 0;
                    Thread t = new Thread(() -> {
                        Socket s = client(client, due, failed);
                        if (s != null) open.add(s);
                    }, "connects-" + w.index() + "-" + k);
                    t.setDaemon(true);
                    threads.add(t);
                }
                clientsStarted = spec.count();
                threads.forEach(Thread::start);
                for (Thread t : threads) t.join();
            }
            if (!stopRequested && error == null) {
                long last = 0;
                boolean all = true;
                for (long r : readyNs) {
                    if (r == 0) all = false;
                    last = Math.max(last, r);
                }
                if (all) endNs = last;
            }
        } catch (Throwable t) {
            fail(t.toString());
        }
    }

    /**
     * One client: connects at {@code due}, and again after the reconnect backoff from each close, until a
     * connection is answered (returns its socket, still open) or the client gives up (null, with an error).
     */
    private Socket client(int k, long due, int failedAttempts) {
        int failed = failedAttempts;
        int attempt = 0;
        while (!stopRequested && error == null) {
            sleepUntil(due);
            if (stopRequested) return null;
            attempt++;
            synchronized (this) {
                attemptsOf[k] = attempt;
            }
            long connectNs = System.nanoTime();
            synchronized (this) {
                if (firstConnectNs == 0 || connectNs < firstConnectNs) firstConnectNs = connectNs;
            }
            Socket s = new Socket();
            inflight.add(s);
            if (stopRequested) closeQuietly(s);
            String outcome;
            String how;
            long at;
            try {
                s.setTcpNoDelay(true);
                s.connect(address, (int) ANSWER_TIMEOUT_MS);
                long left = ANSWER_TIMEOUT_MS - (System.nanoTime() - connectNs) / 1_000_000L;
                s.setSoTimeout((int) Math.max(1, left));
                int correlationId = k * 1000 + attempt;
                RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, version, configuredClientId,
                    correlationId);
                ByteBuffer body = new ApiVersionsRequest.Builder().build(version).serializeWithHeader(header);
                byte[] frame = new byte[4 + body.remaining()];
                ByteBuffer.wrap(frame).putInt(body.remaining()).put(body);
                OutputStream out = s.getOutputStream();
                out.write(frame);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                int size = in.readInt();
                byte[] resp = new byte[size];
                in.readFully(resp);
                at = System.nanoTime();
                AbstractResponse r = AbstractResponse.parseResponse(ByteBuffer.wrap(resp), header);
                ApiVersionsResponseData data = ((ApiVersionsResponse) r).data();
                if (data.errorCode() != Errors.NONE.code()) {
                    outcome = "error";
                    how = "ApiVersions error " + Errors.forCode(data.errorCode());
                } else {
                    outcome = "ready";
                    how = "answer";
                }
            } catch (EOFException e) {
                at = System.nanoTime();
                outcome = "closed";
                how = "eof";
            } catch (SocketTimeoutException e) {
                at = System.nanoTime();
                outcome = "timeout";
                how = "no answer and no close within " + ANSWER_TIMEOUT_MS + " ms";
            } catch (SocketException e) {
                at = System.nanoTime();
                String m = String.valueOf(e.getMessage());
                if (m.toLowerCase(java.util.Locale.ROOT).contains("reset") || m.contains("Broken pipe")) {
                    outcome = "closed";
                    how = "reset";
                } else {
                    outcome = "error";
                    how = e.toString();
                }
            } catch (IOException | RuntimeException e) {
                at = System.nanoTime();
                outcome = "error";
                how = e.toString();
            }
            inflight.remove(s);
            switch (outcome) {
                case "ready" -> {
                    synchronized (this) {
                        readyNs[k] = at;
                    }
                    attempts.add(new Attempt(k, attempt, connectNs, outcome, how, at, -1));
                    return s;
                }
                case "closed" -> {
                    closeQuietly(s);
                    long b = backoff.backoff(failed);
                    failed++;
                    synchronized (this) {
                        refusalsOf[k]++;
                    }
                    attempts.add(new Attempt(k, attempt, connectNs, outcome, how, at, b));
                    due = at + b * 1_000_000L;
                }
                default -> {
                    closeQuietly(s);
                    attempts.add(new Attempt(k, attempt, connectNs, outcome, how, at, -1));
                    if (!stopRequested) fail("client " + k + " attempt " + attempt + ": " + outcome + " (" + how + ") after "
                        + Math.round((at - connectNs) / 1e6) + " ms");
                    return null;
                }
            }
        }
        return null;
    }

    private synchronized void fail(String why) {
        if (error == null) error = why;
    }

    private void sleepUntil(long due) {
        while (!stopRequested) {
            long left = due - System.nanoTime();
            if (left <= 0) return;
            LockSupport.parkNanos(Math.min(left, 50_000_000L));
        }
    }

    private static void closeQuietly(Socket s) {
        if (s == null) return;
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** The attempts so far, by the time their outcome was seen. */
    List<Attempt> attempts() {
        synchronized (attempts) {
            List<Attempt> l = new ArrayList<>(attempts);
            l.sort((a, b) -> Long.compare(a.atNs(), b.atNs()));
            return l;
        }
    }

    /** Clients (cycles for reopen) begun. */
    int clients() {
        return spec.reopen() ? clientsStarted : spec.count();
    }

    synchronized long readyNs(int k) {
        return readyNs[k];
    }

    synchronized int attemptsOf(int k) {
        return attemptsOf[k];
    }

    synchronized int refusalsOf(int k) {
        return refusalsOf[k];
    }

    long firstConnectNs() {
        return firstConnectNs;
    }

    /** Clients (cycles) whose connection was answered. */
    synchronized int ready() {
        int n = 0;
        for (long r : readyNs) if (r != 0) n++;
        return n;
    }

    /** Clients (cycles) whose first attempt was closed unanswered. */
    long refusedFirst() {
        return attempts().stream().filter(a -> a.attempt() == 1 && a.outcome().equals("closed")).count();
    }

    /** Every attempt closed unanswered. */
    long refusals() {
        return attempts().stream().filter(a -> a.outcome().equals("closed")).count();
    }

    /** Connections open now (ready pool / storm clients). */
    int openConnections() {
        return open.size();
    }

    Map<String, Long> closesBy() {
        Map<String, Long> m = new TreeMap<>();
        for (Attempt a : attempts()) if (a.outcome().equals("closed")) m.merge(a.how(), 1L, Long::sum);
        return m;
    }

    @Override
    long recordsOk() {
        return 0;
    }

    @Override
    long recordsFailed() {
        return 0;
    }

    @Override
    List<long[]> progress() {
        return List.of();
    }

    @Override
    Double throttleAvg() {
        return null;
    }

    @Override
    Double throttleMax() {
        return 0.0;
    }

    @Override
    Double retryTotal() {
        return null;
    }

    @Override
    void stopNow(String why) {
        stopRequested = true;
        // Unblock the clients waiting for an answer: closing a socket makes its blocked read throw.
        inflight.forEach(ConnectsRun::closeQuietly);
        synchronized (open) {
            open.forEach(ConnectsRun::closeQuietly);
        }
    }

    @Override
    void close() {
        stopRequested = true;
        inflight.forEach(ConnectsRun::closeQuietly);
        synchronized (open) {
            open.forEach(ConnectsRun::closeQuietly);
            open.clear();
        }
    }
}
