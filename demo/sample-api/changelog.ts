// What `GET /changelog` answers: plain text, as an API's release notes often are.

export const CHANGELOG = `Petstore sample API: changes, newest first

2025-03-01  GET /export: every pet in a ZIP file, to download.
2025-02-01  GET /catalog: the shop's catalog, gzip-compressed for clients that accept it.
2025-01-15  GET /pets.xml: the pets as XML, for older integrations.
2025-01-01  The API moved from /v1/ to the root: /v1/pets is now /pets. The old
            paths answer 301 Moved Permanently with the new one in Location.
2024-12-01  Errors are RFC 9457 problem details (application/problem+json).
2024-11-01  GET /pets/events: pet status changes as server-sent events.
`;
