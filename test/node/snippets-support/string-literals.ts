// The text values a snippet hands to its client, as the language itself reads them: the shell's words for curl
// (a stand-in `curl` function prints its arguments), fetch's arguments for JavaScript (a stand-in fetch), and the
// string literals found by Go's, Python's and PHP's own parsers. Proof that a snippet quotes and escapes right
// without sending anything, for snippets (templates) that cannot be sent.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnippetLanguage } from '../../../src/core/index.js';
import { runSnippet } from './interpreters.js';

const RECORDING_CURL = "curl() { printf '%s\\0' \"$@\"; }\n";
const RECORDING_FETCH = `globalThis.fetch = async (url, init) => {
  process.stderr.write(JSON.stringify([url, init.method, ...Object.entries(init.headers ?? {}).flat(), init.body ?? '']));
  return { status: 0, text: async () => '' };
};
`;
const PYTHON_LITERALS = 'import ast, json, sys\nprint(json.dumps([n.value for n in ast.walk(ast.parse(open(sys.argv[1], encoding="utf-8").read())) if isinstance(n, ast.Constant) and isinstance(n.value, str)]))';
const PHP_LITERALS = '$values = []; foreach (token_get_all(file_get_contents($argv[1])) as $token) { if (is_array($token) && $token[0] === T_CONSTANT_ENCAPSED_STRING) $values[] = eval("return $token[1];"); } echo json_encode($values);';
const GO_LITERALS = `package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

func main() {
	file, err := parser.ParseFile(token.NewFileSet(), os.Args[1], nil, 0)
	if err != nil {
		panic(err)
	}
	values := []string{}
	ast.Inspect(file, func(node ast.Node) bool {
		if literal, ok := node.(*ast.BasicLit); ok && literal.Kind == token.STRING {
			value, err := strconv.Unquote(literal.Value)
			if err != nil {
				panic(err)
			}
			values = append(values, value)
		}
		return true
	})
	json.NewEncoder(os.Stdout).Encode(values)
}
`;

/** The text values `snippet` holds, in `language`'s own reading. Files go to `<dir>/<name>.*`. */
export async function stringLiterals(language: SnippetLanguage, snippet: string, dir: string, name: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const file = join(dir, `${name}.${language}.txt`);
  const run = (command: string, args: string[]) => execFileSync(command, args, { env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
  switch (language) {
    case 'curl': {
      const result = await runSnippet('curl', RECORDING_CURL + snippet, dir, name, env);
      if (result.code !== 0) throw new Error(`bash failed: ${result.stderr}`);
      return result.stdout.split('\0').slice(0, -1);
    }
    case 'javascript': {
      const result = await runSnippet('javascript', RECORDING_FETCH + snippet, dir, name, env);
      if (result.code !== 0) throw new Error(`node failed: ${result.stderr}`);
      return JSON.parse(result.stderr) as string[];
    }
    case 'python':
      writeFileSync(file, snippet);
      return JSON.parse(run('/usr/bin/python3', ['-c', PYTHON_LITERALS, file])) as string[];
    case 'php':
      writeFileSync(file, snippet);
      return JSON.parse(run('php', ['-r', PHP_LITERALS, file])) as string[];
    case 'go': {
      writeFileSync(file, snippet);
      const reader = join(dir, 'go-literals.go');
      writeFileSync(reader, GO_LITERALS);
      return JSON.parse(run('go', ['run', reader, file])) as string[];
    }
  }
}
