// The sql.js workload (crates/ssakit-wasm/tests/node.rs): SQLite, from the
// package directory given as the first argument, runs a script of tables,
// indexes, inserts, joins, aggregates, a recursive CTE and text functions,
// and prints every result row. Its output must not depend on the module
// beyond what SQLite computes (no times, no addresses).
'use strict';
const path = require('path');
const pkg = path.resolve(process.argv[2]);
const initSqlJs = require(path.join(pkg, 'dist', 'sql-wasm.js'));

const script = `
CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER);
CREATE TABLE book (id INTEGER PRIMARY KEY, author INTEGER REFERENCES author(id),
                   title TEXT, year INTEGER, pages INTEGER, price REAL);
CREATE INDEX book_author ON book(author);
CREATE UNIQUE INDEX book_title ON book(title);
INSERT INTO author VALUES (1, 'Cervantes', 1547), (2, 'Borges', 1899),
  (3, 'Cortázar', 1914), (4, 'Pardo Bazán', 1851), (5, 'Nobody', NULL);
INSERT INTO book(author, title, year, pages, price) VALUES
  (1, 'Don Quijote', 1605, 863, 19.95), (1, 'Novelas ejemplares', 1613, 420, 12.5),
  (2, 'Ficciones', 1944, 174, 9.99), (2, 'El Aleph', 1949, 146, 8.75),
  (3, 'Rayuela', 1963, 600, 15.0), (3, 'Bestiario', 1951, 160, 7.25),
  (4, 'Los pazos de Ulloa', 1886, 380, 11.1);
`;

const queries = [
  // a join with an aggregate and a grouping
  `SELECT a.name, count(b.id), sum(b.pages), round(avg(b.price), 3)
     FROM author a LEFT JOIN book b ON b.author = a.id
     GROUP BY a.id ORDER BY a.name`,
  // an index lookup and text functions
  `SELECT upper(title), length(title), substr(title, 2, 4), replace(title, 'e', '3'),
          instr(title, 'a'), printf('%08.3f|%-6s|%x', price, year, pages)
     FROM book WHERE author = 2 ORDER BY title`,
  // a recursive CTE: the first 30 Fibonacci numbers and a Collatz walk
  `WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 30)
     SELECT group_concat(a, ',') FROM fib`,
  `WITH RECURSIVE c(x, k) AS (SELECT 27, 0 UNION ALL
       SELECT CASE WHEN x % 2 = 0 THEN x / 2 ELSE 3 * x + 1 END, k + 1 FROM c WHERE x > 1)
     SELECT max(k), max(x), sum(x) FROM c`,
  // a subquery, HAVING, window-free ranking by correlated count
  `SELECT title, year, (SELECT count(*) FROM book b2 WHERE b2.year < b.year) AS rank
     FROM book b WHERE pages > (SELECT avg(pages) FROM book) ORDER BY rank`,
  `SELECT author, min(year), max(year) FROM book GROUP BY author HAVING count(*) > 1 ORDER BY 1`,
  // numbers: integer overflow to real, division, modulo, floats printed
  `SELECT sqlite_version()`,
  `SELECT 9223372036854775807 + 1, 7 / 2, 7 % 3, 7.0 / 3, 1e308 * 10, -0.0, 0.1 + 0.2`,
  // hashing-like text work: hex, quote, trim, like, glob, unicode
  `SELECT hex(name), quote(name), trim('  x  '), name LIKE '%z%', name GLOB 'C*', unicode(name), char(241, 225)
     FROM author ORDER BY id`,
  // window functions
  `SELECT title, sum(pages) OVER (PARTITION BY author ORDER BY year), row_number() OVER (ORDER BY price DESC)
     FROM book ORDER BY title`,
];

initSqlJs({ locateFile: (f) => path.join(pkg, 'dist', f) }).then((SQL) => {
  const db = new SQL.Database();
  db.run(script);
  // a bigger table: 20,000 rows, an index, a sort and an aggregate over it
  db.run('CREATE TABLE t (k INTEGER, v TEXT)');
  const ins = db.prepare('INSERT INTO t VALUES (?, ?)');
  let x = 12345;
  for (let i = 0; i < 20000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    ins.run([x % 1000, 'v' + (x % 7919).toString(36)]);
  }
  ins.free();
  db.run('CREATE INDEX t_k ON t(k)');
  queries.push(
    `SELECT k, count(*), min(v), max(v) FROM t WHERE k BETWEEN 100 AND 110 GROUP BY k ORDER BY k`,
    `SELECT count(DISTINCT v), sum(k), total(k * 1.5) FROM t`,
    `SELECT v FROM t ORDER BY v DESC, k LIMIT 5`,
  );
  for (const q of queries) {
    for (const r of db.exec(q)) {
      console.log(r.columns.join(' | '));
      for (const row of r.values) console.log(row.map((v) => JSON.stringify(v)).join(' | '));
    }
    console.log('--');
  }
  const bytes = db.export();
  console.log('database bytes', bytes.length);
  db.close();
});
