-- Joins: INNER, LEFT / RIGHT / FULL [OUTER], CROSS and comma joins, equality and other ON
-- conditions, joins with subqueries; qualified and ambiguous names.
CREATE TABLE emp (id INT, name STRING, dept INT) TBLPROPERTIES ('row-tracking.enabled' = 'true');
CREATE TABLE dept (dept_id BIGINT, dname STRING);
INSERT INTO emp VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cid', NULL), (4, 'dee', 10);
INSERT INTO dept VALUES (10, 'eng'), (30, 'ops'), (NULL, 'none');
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.dept_id;
SELECT e.name, d.dname FROM emp e INNER JOIN dept d ON d.dept_id = e.dept AND e.id > 1;
SELECT e.name, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.dept_id;
SELECT e.name, d.dname FROM emp e LEFT OUTER JOIN dept d ON e.dept = d.dept_id AND d.dname <> 'eng';
SELECT e.name, d.dname FROM emp e RIGHT JOIN dept d ON e.dept = d.dept_id;
SELECT e.name, d.dname FROM emp e FULL OUTER JOIN dept d ON e.dept = d.dept_id;
SELECT e.name, d.dname FROM emp e CROSS JOIN dept d WHERE d.dname = 'ops';
SELECT emp.name, dept.dname FROM emp, dept WHERE emp.dept = dept.dept_id;
SELECT a.name, b.name FROM emp a JOIN emp b ON a.dept = b.dept AND a.id < b.id;
SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept < d.dept_id;
SELECT e._ROW_ID, e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.dept_id;
SELECT e.name, x.n FROM emp e JOIN (SELECT dept, count(*) AS n FROM emp GROUP BY dept) x ON e.dept = x.dept;
SELECT d.dname, count(e.id) AS people FROM dept d LEFT JOIN emp e ON e.dept = d.dept_id GROUP BY d.dname;
SELECT * FROM emp e JOIN dept d ON e.dept = d.dept_id;
SELECT name FROM emp a JOIN emp b ON a.id = b.id;
SELECT e.name FROM emp e JOIN dept d ON e.nope = d.dept_id;
SELECT e.name FROM emp e JOIN dept d ON e.dept;
SELECT q.* FROM emp e;
-- SEMI / ANTI joins and USING (issue 20, item 13), Spark's forms.
CREATE TABLE ja (id INT, s STRING);
CREATE TABLE jb (id INT, w INT);
INSERT INTO ja VALUES (1, 'x'), (2, 'y'), (NULL, 'n');
INSERT INTO jb VALUES (1, 10), (1, 11), (3, 30), (NULL, 0);
-- Spark: (1, x) once.
SELECT * FROM ja LEFT SEMI JOIN jb ON ja.id = jb.id;
-- Spark: (2, y), (NULL, n).
SELECT * FROM ja LEFT ANTI JOIN jb ON ja.id = jb.id;
-- Spark: id, s, w: (1, x, 10), (1, x, 11).
SELECT * FROM ja JOIN jb USING (id);
-- Spark: the joined id is the first non-NULL of both sides; ja.id / jb.id stay reachable.
SELECT id, s, w, ja.id AS a_id, jb.id AS b_id FROM ja FULL JOIN jb USING (id) ORDER BY w, s;
SELECT * FROM ja JOIN jb USING (w);
-- NATURAL joins: USING every column name both sides have, in the left side's order, matched
-- case-insensitively (Spark: k, j here); a cross product when there is none.
CREATE TABLE na (k INT, x STRING, j INT);
CREATE TABLE nb (J INT, y STRING, k INT);
INSERT INTO na VALUES (1, 'a1', 10), (2, 'a2', 20), (3, 'a3', NULL);
INSERT INTO nb VALUES (10, 'b1', 1), (30, 'b3', 3), (NULL, 'bn', 3);
-- Spark: (1, 10, a1, b1).
SELECT * FROM na NATURAL JOIN nb ORDER BY k;
-- Spark: (1, 10, a1, b1), (2, 20, a2, NULL), (3, NULL, NULL, bn), (3, NULL, a3, NULL), (3, 30, NULL, b3).
SELECT * FROM na NATURAL FULL OUTER JOIN nb ORDER BY k, j, x;
SELECT na.j, nb.j, k FROM na NATURAL RIGHT JOIN nb ORDER BY k, nb.j;
SELECT count(*) FROM na NATURAL JOIN (SELECT 1 AS z) t;
SELECT * FROM na NATURAL CROSS JOIN nb;
