// custom-elements.json as framework tooling reads it (editors' completions, JSX and Vue type generators): every
// attribute it lists is one the element reads, and every part drawn is listed. Runs after `npm run build` (npm test
// builds first), which generates the manifest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

interface Member { kind: string; name: string; privacy?: string; attribute?: string; type?: { text: string } }
interface Declaration {
  tagName?: string;
  attributes?: { name: string; fieldName?: string; type?: { text: string } }[];
  members?: Member[];
  cssParts?: { name: string; description?: string }[];
}

function elements(): Map<string, { declaration: Declaration; source: string }> {
  const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as { modules: { path: string; declarations?: Declaration[] }[] };
  return new Map(manifest.modules.flatMap((module) => (module.declarations ?? []).filter((d) => d.tagName).map((declaration) => [declaration.tagName!, { declaration, source: readFileSync(join(root, module.path), 'utf8') }])));
}

describe('custom-elements.json for framework tooling', () => {
  it('lists only attributes the element reads, each with its public field and type', () => {
    const listed = elements();
    assert.equal(listed.size, 4);
    for (const [tag, { declaration }] of listed) {
      for (const attribute of declaration.attributes ?? []) {
        const field = declaration.members?.find((member) => member.name === attribute.fieldName);
        // Before, <try-it-console> listed `config` (a string), the private field that only explains a framework's
        // "[object Object]": tooling offered config="…" as an attribute and typed it as text beside the config property.
        assert.ok(field && field.privacy === undefined, `${tag}: the ${attribute.name} attribute is of ${field ? `a ${field.privacy} field` : 'no field'}`);
        assert.equal(attribute.type?.text, field.type?.text, `${tag}: ${attribute.name}`);
      }
      for (const member of declaration.members ?? []) {
        if (member.privacy) assert.equal(member.attribute, undefined, `${tag}: the ${member.privacy} ${member.name} has an attribute`);
      }
      const theme = declaration.attributes?.find((attribute) => attribute.name === 'theme');
      assert.equal(theme?.type?.text, "'light' | 'dark' | undefined", `${tag}: theme`);
    }
  });

  it('lists every part each element draws, the parts it forwards included, each described', () => {
    for (const [tag, { declaration, source }] of elements()) {
      const listed = (declaration.cssParts ?? []).map((part) => part.name);
      for (const part of declaration.cssParts ?? []) assert.ok(part.description, `${tag}: ${part.name} has no description`);
      // part="x", part=${sending ? 'a' : 'b'} and exportparts="x, y" in the element's templates.
      const drawn = [
        ...[...source.matchAll(/\spart="([\w\s-]+)"/g)].flatMap((match) => match[1]!.split(/\s+/)),
        ...[...source.matchAll(/\spart=\$\{([^}]+)\}/g)].flatMap((match) => [...match[1]!.matchAll(/'([\w-]+)'/g)].map((quoted) => quoted[1]!)),
        ...[...source.matchAll(/\sexportparts="([^"]+)"/g)].flatMap((match) => match[1]!.split(/\s*,\s*/)),
      ];
      assert.ok(drawn.length >= 2, `${tag}: parts found in its template`);
      assert.deepEqual([...new Set(drawn)].filter((part) => !listed.includes(part)), [], `${tag}: drawn, not listed`);
      assert.deepEqual(listed.filter((part) => !drawn.includes(part)), [], `${tag}: listed, not drawn`);
    }
  });
});
