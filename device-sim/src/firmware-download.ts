import { createHash, type Hash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIPv6 } from 'node:net';
import type { TimerWheel, WheelTimer } from './timer-wheel.js';

/**
 * A firmware download the way a device with little memory does it: the body is streamed, each
 * chunk counted and fed to a running sha256 and then let go, so that nothing but the hash state
 * is held however large the image. An interrupted download resumes with
 * `Range: bytes=<received>-` and the same hash state.
 */

export interface DownloadSettings {
  /** Shared by the fleet: they bound how many downloads hold a socket at once. */
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** Wait before resuming after an interruption. */
  retryMs: number;
  /** Interruptions in a row (without a byte received in between) before giving up. */
  maxAttempts: number;
  /** A connection that sends nothing this long counts as interrupted. */
  idleTimeoutMs: number;
}

export interface DownloadFaults {
  /** Cut the connection once at about half way (the socket is destroyed). */
  dropAtHalf: boolean;
  /** Flip the first byte before hashing it. */
  corrupt: boolean;
}

export interface DownloadListener {
  /** `bytes` more arrived; `received` in all. */
  received(bytes: number, received: number): void;
  /** The connection was lost and the download resumes after `retryMs`. */
  resuming(): void;
  /** The announced size arrived; the sha256 of what arrived (not yet compared). */
  completed(sha256: string): void;
  failed(error: string): void;
}

/** `bytes 500-999/1000` starting where we asked. */
function rangeStartsAt(contentRange: string | undefined, start: number): boolean {
  return contentRange !== undefined && contentRange.startsWith(`bytes ${start}-`);
}

export class FirmwareDownload {
  private hash: Hash = createHash('sha256');
  private received = 0;
  private attempts = 0;
  private dropped = false;
  private corrupted = false;
  private done = false;
  private request: http.ClientRequest | undefined;
  private retry: WheelTimer | undefined;

  constructor(
    private readonly url: URL,
    private readonly size: number,
    private readonly settings: DownloadSettings,
    private readonly faults: DownloadFaults,
    private readonly wheel: TimerWheel,
    private readonly localAddress: string | undefined,
    private readonly listener: DownloadListener,
  ) {}

  start(): void {
    this.fetch();
  }

  /** Stops for good (the device rebooted or was stopped); the listener hears nothing more. */
  cancel(): void {
    this.done = true;
    this.retry?.cancel();
    this.request?.destroy();
  }

  private fetch(): void {
    if (this.received === this.size) {
      this.bodyEnded();
      return;
    }
    const secure = this.url.protocol === 'https:';
    const options: http.RequestOptions = {
      agent: secure ? this.settings.httpsAgent : this.settings.httpAgent,
      headers: this.received > 0 ? { range: `bytes=${this.received}-` } : {},
      timeout: this.settings.idleTimeoutMs,
      // A source address of one family can only reach the server over that family.
      ...(this.localAddress
        ? { localAddress: this.localAddress, family: isIPv6(this.localAddress) ? 6 : 4 }
        : {}),
    };
    let request: http.ClientRequest;
    try {
      request = secure ? https.get(this.url, options) : http.get(this.url, options);
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    this.request = request;
    let settled = false;
    const interrupted = (reason: string) => {
      if (settled) return;
      settled = true;
      this.interrupted(reason);
    };
    request.on('timeout', () => request.destroy(new Error('no data for too long')));
    request.on('error', (error) => interrupted(error.message));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const resumed =
        status === 206 && rangeStartsAt(response.headers['content-range'], this.received);
      if (status !== 200 && !resumed) {
        settled = true;
        request.destroy();
        this.fail(status === 206 ? 'unexpected Content-Range' : `HTTP ${status}`);
        return;
      }
      // A server that ignores Range sends the whole file again: start over.
      if (status === 200 && this.received > 0) this.restart();
      response.on('data', (chunk: Buffer) => {
        if (!settled) this.chunk(chunk, request, () => (settled = true));
      });
      response.on('error', () => {
        // Always followed by 'close', which decides.
      });
      response.on('close', () => {
        if (response.complete) {
          if (!settled) {
            settled = true;
            this.bodyEnded();
          }
        } else {
          interrupted('connection lost');
        }
      });
    });
  }

  private chunk(chunk: Buffer, request: http.ClientRequest, settle: () => void): void {
    if (this.done) return;
    if (this.faults.corrupt && !this.corrupted && chunk.length > 0) {
      chunk[0] = (chunk[0] ?? 0) ^ 0xff;
      this.corrupted = true;
    }
    if (this.received + chunk.length > this.size) {
      settle();
      request.destroy();
      this.fail(`size mismatch: more than the announced ${this.size} bytes`);
      return;
    }
    this.hash.update(chunk);
    this.received += chunk.length;
    this.attempts = 0;
    this.listener.received(chunk.length, this.received);
    if (this.faults.dropAtHalf && !this.dropped && this.received * 2 >= this.size) {
      this.dropped = true;
      if (this.received < this.size) request.destroy();
    }
  }

  private bodyEnded(): void {
    if (this.done) return;
    if (this.received !== this.size) {
      this.fail(`size mismatch: received ${this.received} of ${this.size} bytes`);
      return;
    }
    this.done = true;
    this.request = undefined;
    this.listener.completed(this.hash.digest('hex'));
  }

  private interrupted(reason: string): void {
    if (this.done) return;
    this.request = undefined;
    this.attempts += 1;
    if (this.attempts > this.settings.maxAttempts) {
      this.fail(`download interrupted: ${reason}`);
      return;
    }
    this.listener.resuming();
    this.retry = this.wheel.schedule(this.settings.retryMs, () => {
      if (!this.done) this.fetch();
    });
  }

  private restart(): void {
    this.hash = createHash('sha256');
    this.received = 0;
    this.corrupted = false;
  }

  private fail(error: string): void {
    if (this.done) return;
    this.done = true;
    this.request = undefined;
    this.listener.failed(error);
  }
}
