// The connection to the server: one WebSocket to this page's own origin,
// the `hello` handshake, requests answered by id, and reconnection with a
// bounded backoff. What to do after a (re)connect (resume seats, watch) is
// the app's: it listens for "ready".

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;
// A request whose answer never comes fails after this long, so no promise
// (and no button waiting on one) hangs forever.
const REQUEST_TIMEOUT_MS = 20000;

/**
 * @typedef {{type: string, [k: string]: any}} Message
 * @typedef {{state: 'connecting'|'connected'|'lost'|'halted', retryAt?: number, attempt?: number}} Status
 */

export class Net {
  /** @param {() => string} nameOf the name to say in `hello` */
  constructor(nameOf) {
    this.nameOf = nameOf;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.ready = false;
    this.welcome = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function, timer: any}>} */
    this.pending = new Map();
    /** @type {Map<string, Set<Function>>} */
    this.handlers = new Map();
    this.delay = FIRST_DELAY_MS;
    this.retryTimer = null;
    this.halted = false;
    /** @type {Status} */
    this.status = { state: 'connecting' };
  }

  /** Subscribes to a message type ("*" for all, "status", "ready"). */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, value) {
    for (const fn of this.handlers.get(type) || []) {
      try {
        fn(value);
      } catch (e) {
        console.error(e);
      }
    }
  }

  setStatus(status) {
    this.status = status;
    this.emit('status', status);
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.ws) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/`);
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.setStatus({ state: 'connecting' });
    ws.onopen = () => {
      const hello = { type: 'hello', version: 1 };
      const name = this.nameOf();
      if (name) hello.name = name;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      if (typeof e.data !== 'string') return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      this.failPending('the connection was lost');
      if (this.halted) return;
      this.scheduleRetry();
    };
    ws.onerror = () => {
      // onclose follows and does the work.
    };
  }

  /** @param {Message} msg */
  receive(msg) {
    if (msg.type === 'welcome') {
      this.welcome = msg;
      this.ready = true;
      this.delay = FIRST_DELAY_MS;
      this.setStatus({ state: 'connected' });
      this.emit('ready', msg);
      return;
    }
    if (msg.type === 'halted') {
      this.halted = true;
      this.setStatus({ state: 'halted', message: msg.message });
    }
    if (msg.re !== undefined && this.pending.has(msg.re)) {
      const p = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      clearTimeout(p.timer);
      if (msg.type === 'error') p.reject(new ServerError(msg));
      else p.resolve(msg);
      // The answer is also an event (a `moved` is news for the board too);
      // an error answered to a request is its caller's to show.
      if (msg.type === 'error') return;
    }
    this.emit(msg.type, msg);
    this.emit('*', msg);
  }

  scheduleRetry() {
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    this.setStatus({ state: 'lost', retryAt: Date.now() + wait });
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Retries at once (the "Try now" button). */
  retryNow() {
    if (this.ws || this.halted) return;
    this.connect();
  }

  failPending(why) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ServerError({ code: 'connection', message: why }));
    }
    this.pending.clear();
  }

  /**
   * Sends a request and resolves with its answer (the message carrying its
   * id as `re`), or rejects with a ServerError.
   * @param {Message} msg
   * @returns {Promise<Message>}
   */
  request(msg) {
    if (!this.ready || !this.ws) {
      return Promise.reject(new ServerError({ code: 'connection', message: 'not connected' }));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ServerError({ code: 'timeout', message: 'the server did not answer' }));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}

export class ServerError extends Error {
  constructor(msg) {
    super(msg.message || msg.code);
    this.code = msg.code;
    this.serverMessage = msg.message || '';
  }
}

// Each error code in words for people; the server's own message follows it
// when it says more.
const CODE_WORDS = {
  connection: 'Not connected to the server.',
  timeout: 'The server did not answer in time.',
  bad_request: 'The server did not understand the request.',
  no_table: 'There is no such table (the link may be wrong, or the table gone).',
  bad_level: 'That level cannot be played here.',
  bad_agent: 'There is no such computer player for this game.',
  no_seat: 'That seat is taken, or no seat is open.',
  not_seated: 'You hold no seat at this table.',
  bad_token: 'The server no longer knows your seat at this table.',
  not_your_turn: 'It is not your turn.',
  illegal: 'That move is not allowed.',
  stale: 'The position changed before your move arrived: choose again.',
  over: 'The game is over.',
  not_over: 'The game is not over yet.',
  waiting: 'The game has not begun: a seat is still open.',
  take_back: 'A take-back cannot be asked or answered now.',
  no_spectators: 'This table takes no spectators.',
  limit: 'The server is at one of its limits.',
  flood: 'Too many refused requests: the server closed the connection.',
  too_large: 'The message was too large.',
  halted: 'The server stopped taking moves.',
  version: 'The server speaks another version of the protocol.',
};

/** An error in words: what it means, then the server's reason. */
export function errorWords(err) {
  const code = err && err.code;
  const base = CODE_WORDS[code] || 'Something went wrong.';
  const detail = err && (err.serverMessage ?? err.message);
  if (detail && !base.toLowerCase().includes(String(detail).toLowerCase())) {
    return `${base} (${detail})`;
  }
  return base;
}
