/**
 * The `ws` package (installed with ocpp-rpc and miniflare; it ships no types and the project does
 * not add @types/ws): the few parts the peer tests and the OCPP bench use, typed here and loaded
 * by name at run time. `loadWs()` answers undefined when it cannot be imported.
 */
export interface WsSocket {
  readonly protocol: string;
  readonly readyState: number;
  on(event: "open", listener: () => void): this;
  on(event: "message", listener: (data: Buffer) => void): this;
  on(event: "close", listener: (code: number, reason: Buffer) => void): this;
  on(event: "error", listener: (error: Error) => void): this;
  on(event: "unexpected-response", listener: (request: unknown, response: { statusCode?: number }) => void): this;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

export interface WsServer {
  readonly clients: Set<WsSocket>;
  on(event: "connection", listener: (socket: WsSocket) => void): this;
  on(event: "listening", listener: () => void): this;
  address(): { port: number } | string | null;
  close(callback?: (error?: Error) => void): void;
}

export interface WsModule {
  WebSocket: new (url: string, protocols?: string | string[], options?: { headers?: Record<string, string>; maxPayload?: number; handshakeTimeout?: number }) => WsSocket;
  WebSocketServer: new (options: {
    host?: string;
    port?: number;
    handleProtocols?: (protocols: Set<string>) => string | false;
  }) => WsServer;
}

export async function loadWs(): Promise<WsModule | undefined> {
  // A name in a variable: TypeScript does not look for declarations of a dynamic specifier.
  const name = "ws";
  try {
    const mod = (await import(name)) as Partial<WsModule>;
    return mod.WebSocket && mod.WebSocketServer ? (mod as WsModule) : undefined;
  } catch {
    return undefined;
  }
}
