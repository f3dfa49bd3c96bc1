// The VS Code side of `wgdsl lsp`: start the server over stdio for card files (.wg), game
// files (.game) and ruling cases (*.toml; the server answers only for those with a [case]
// table).  Plain JavaScript, nothing to build: `npm install` here, then open the folder in
// VS Code and press F5, or `npx @vscode/vsce package` for a .vsix.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("wgdsl")
    .get("server.command", ["wgdsl", "lsp"]);
  // TransportKind.stdio: the client adds `--stdio`, which `wgdsl lsp` accepts
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "wgdsl" },
      { scheme: "untitled", language: "wgdsl" },
      { scheme: "file", language: "wgdsl-game" },
      { scheme: "file", pattern: "**/*.toml" },
    ],
  };
  client = new LanguageClient("wgdsl", "wgdsl", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
