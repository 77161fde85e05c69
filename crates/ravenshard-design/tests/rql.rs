//! The RQL parser: the chapter's queries, each construct, exact errors, and properties
//! (no input panics; printing and parsing again gives the same query).

use proptest::prelude::*;
use ravenshard_design::rql::{
    parse, CompareOp, Count, Expr, Operand, OrderBy, OrderKey, Position, Query, RqlError, Source,
    Value, KEYWORDS, MAX_DEPTH,
};

fn field(path: &str) -> Operand {
    Operand::Field(path.to_string())
}

fn string(text: &str) -> Value {
    Value::String(text.to_string())
}

fn equal(operand: Operand, value: Value) -> Expr {
    Expr::Compare {
        operand,
        op: CompareOp::Equal,
        value,
    }
}

fn filter(text: &str) -> Expr {
    match parse(text) {
        Ok(Query {
            filter: Some(filter),
            ..
        }) => filter,
        other => panic!("{text}: {other:?}"),
    }
}

fn message(text: &str) -> String {
    match parse(text) {
        Err(error) => error.to_string(),
        Ok(query) => panic!("{text} parsed: {query:?}"),
    }
}

// The chapter's queries.

#[test]
fn by_id() {
    let query = parse("from Orders where id() = 'orders/1-A'").unwrap();
    assert_eq!(query.source, Source::Collection("Orders".into()));
    assert_eq!(query.filter, Some(equal(Operand::Id, string("orders/1-A"))));
    assert_eq!((query.alias, query.limit, query.offset), (None, None, None));
    assert!(query.order_by.is_empty() && query.other_clauses.is_empty());
}

#[test]
fn by_field() {
    assert_eq!(
        filter("from Orders where Customer = 'customers/1-A'"),
        equal(field("Customer"), string("customers/1-A"))
    );
}

#[test]
fn with_parameter_and_paging() {
    let query = parse("from Orders where OrderedAt > $today limit 10 offset 5000").unwrap();
    assert_eq!(
        query.filter,
        Some(Expr::Compare {
            operand: field("OrderedAt"),
            op: CompareOp::Greater,
            value: Value::Parameter("today".into()),
        })
    );
    assert_eq!(query.limit, Some(Count::Number(10)));
    assert_eq!(query.offset, Some(Count::Number(5000)));
}

#[test]
fn from_an_index() {
    let query = parse("from index 'Orders/ByCustomer' where Count < 10 limit 2").unwrap();
    assert_eq!(query.source, Source::Index("Orders/ByCustomer".into()));
    assert_eq!(
        query.filter,
        Some(Expr::Compare {
            operand: field("Count"),
            op: CompareOp::Less,
            value: Value::Number("10".into()),
        })
    );
    assert_eq!((query.limit, query.offset), (Some(Count::Number(2)), None));

    let query = parse("from index 'Orders/Totals' where CustomerId = 'customers/1-A'").unwrap();
    assert_eq!(query.source, Source::Index("Orders/Totals".into()));
    assert_eq!(
        query.filter,
        Some(equal(field("CustomerId"), string("customers/1-A")))
    );
}

#[test]
fn nested_fields_joined_by_and() {
    assert_eq!(
        filter("from Customers where Address.State = 'WA' and Address.City = 'Seattle'"),
        Expr::And(vec![
            equal(field("Address.State"), string("WA")),
            equal(field("Address.City"), string("Seattle")),
        ])
    );
}

#[test]
fn group_by_and_select_are_kept_by_name() {
    let query = parse("from Orders group by Address.City select count(), Address.City").unwrap();
    assert_eq!(query.source, Source::Collection("Orders".into()));
    assert_eq!(query.filter, None);
    assert_eq!(query.other_clauses, ["group by", "select"]);
}

// Each construct.

#[test]
fn in_all_in_and_between() {
    assert_eq!(
        filter("from Orders where Company in ('companies/1-A', 'companies/2-A')"),
        Expr::In {
            operand: field("Company"),
            values: vec![string("companies/1-A"), string("companies/2-A")],
            all: false,
        }
    );
    assert_eq!(
        filter("from Orders where id() in ()"),
        Expr::In {
            operand: Operand::Id,
            values: vec![],
            all: false,
        }
    );
    assert_eq!(
        filter("from Products where Tags ALL IN ('a')"),
        Expr::In {
            operand: field("Tags"),
            values: vec![string("a")],
            all: true,
        }
    );
    assert_eq!(
        filter("from Orders where Freight between 10 and 20.5 and ShipVia = 'x'"),
        Expr::And(vec![
            Expr::Between {
                operand: field("Freight"),
                low: Value::Number("10".into()),
                high: Value::Number("20.5".into()),
            },
            equal(field("ShipVia"), string("x")),
        ])
    );
}

#[test]
fn or_and_precedence_parentheses_and_not() {
    let (a, b, c) = (
        equal(field("a"), Value::Number("1".into())),
        equal(field("b"), Value::Number("2".into())),
        equal(field("c"), Value::Number("3".into())),
    );
    assert_eq!(
        filter("from X where a = 1 or b = 2 and c = 3"),
        Expr::Or(vec![a.clone(), Expr::And(vec![b.clone(), c.clone()])])
    );
    assert_eq!(
        filter("from X where (a = 1 or b = 2) and c = 3"),
        Expr::And(vec![Expr::Or(vec![a.clone(), b.clone()]), c.clone()])
    );
    // Flattened: parentheses around the same operator leave no trace.
    assert_eq!(
        filter("from X where a = 1 or ((b = 2) or c = 3)"),
        Expr::Or(vec![a.clone(), b.clone(), c.clone()])
    );
    assert_eq!(
        filter("from X where not a = 1 and not (b = 2 or c = 3)"),
        Expr::And(vec![
            Expr::Not(Box::new(a.clone())),
            Expr::Not(Box::new(Expr::Or(vec![b, c]))),
        ])
    );
    assert_eq!(
        filter("from X where not not a = 1"),
        Expr::Not(Box::new(Expr::Not(Box::new(a))))
    );
}

#[test]
fn true_alone_is_a_condition() {
    let not_a = Expr::Not(Box::new(equal(field("a"), Value::Null)));
    assert_eq!(
        filter("from X where TRUE and not a = null"),
        Expr::And(vec![Expr::True, not_a])
    );
    // A field called true is still a field.
    assert_eq!(
        filter("from X where true = true"),
        equal(field("true"), Value::Bool(true))
    );
    assert_eq!(
        filter("from X where true.x in ()"),
        Expr::In {
            operand: field("true.x"),
            values: vec![],
            all: false
        }
    );
}

#[test]
fn every_comparison_operator() {
    for (written, op) in [
        ("=", CompareOp::Equal),
        ("==", CompareOp::Equal),
        ("!=", CompareOp::NotEqual),
        ("<>", CompareOp::NotEqual),
        ("<", CompareOp::Less),
        ("<=", CompareOp::LessOrEqual),
        (">", CompareOp::Greater),
        (">=", CompareOp::GreaterOrEqual),
    ] {
        assert_eq!(
            filter(&format!("from X where a{written}1")),
            Expr::Compare {
                operand: field("a"),
                op,
                value: Value::Number("1".into()),
            },
            "{written}"
        );
    }
}

#[test]
fn keywords_in_any_case_names_as_written() {
    let query = parse("FROM Orders AS o WHERE o.Customer = 'x' AnD NOT ID(o) In ('a') ORDER BY o.Freight DESC LIMIT 1 OFFSET 2").unwrap();
    assert_eq!(query.alias.as_deref(), Some("o"));
    assert_eq!(
        query.filter,
        Some(Expr::And(vec![
            equal(field("Customer"), string("x")),
            Expr::Not(Box::new(Expr::In {
                operand: Operand::Id,
                values: vec![string("a")],
                all: false,
            })),
        ]))
    );
    assert_eq!(
        query.order_by,
        [OrderBy {
            key: OrderKey::Field("Freight".into()),
            sort_as: None,
            descending: true,
        }]
    );
    assert_eq!(
        (query.limit, query.offset),
        (Some(Count::Number(1)), Some(Count::Number(2)))
    );
}

#[test]
fn the_alias_is_stripped_only_where_it_leads() {
    let query = parse("from Orders as o where o.Customer = 'x' and Customer.o = 'y' and O.x = 1 and o[].x = 2 and o.o.y = 3").unwrap();
    let Some(Expr::And(items)) = query.filter else {
        panic!()
    };
    let operands: Vec<_> = items
        .iter()
        .map(|e| match e {
            Expr::Compare { operand, .. } => operand.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        operands,
        [
            field("Customer"),
            field("Customer.o"),
            field("O.x"),
            field("o[].x"),
            field("o.y")
        ]
    );
    for (text, path) in [
        // A bare alias, as RavenDB also reads it.
        (
            "from Orders o where o.Lines[].Product = 'p'",
            "Lines[].Product",
        ),
        // Without an alias, nothing is stripped.
        ("from Orders where o.Customer = 'p'", "o.Customer"),
        // Paths are written without spaces.
        (
            "from Orders where Lines [ ] . Product = 'p'",
            "Lines[].Product",
        ),
        (
            "from Orders where @metadata.@collection = 'p'",
            "@metadata.@collection",
        ),
    ] {
        assert_eq!(filter(text), equal(field(path), string("p")), "{text}");
    }
}

#[test]
fn values() {
    let Expr::In { values, .. } = filter(
        r#"from X where a in ('it\'s', "say \"hi\"", 'back\\slash', 'O''Brien', "", 42, -7, +3.25, 0.5, true, FALSE, Null, $p0)"#,
    ) else {
        panic!()
    };
    assert_eq!(
        values,
        [
            string("it's"),
            string("say \"hi\""),
            string("back\\slash"),
            string("O'Brien"),
            string(""),
            Value::Number("42".into()),
            Value::Number("-7".into()),
            Value::Number("+3.25".into()),
            Value::Number("0.5".into()),
            Value::Bool(true),
            Value::Bool(false),
            Value::Null,
            Value::Parameter("p0".into()),
        ]
    );
}

#[test]
fn method_calls_are_opaque_conditions() {
    assert_eq!(
        filter("from Employees where search(Notes, 'sales') and startsWith(LastName, 'D') or exists(Address)"),
        Expr::Or(vec![
            Expr::And(vec![
                Expr::Call {
                    name: "search".into(),
                    text: "search(Notes, 'sales')".into(),
                },
                Expr::Call {
                    name: "startsWith".into(),
                    text: "startsWith(LastName, 'D')".into(),
                },
            ]),
            Expr::Call {
                name: "exists".into(),
                text: "exists(Address)".into(),
            },
        ])
    );
    assert_eq!(
        filter("from Orders where spatial.within(Location, spatial.circle(10, 32.1, 34.8)) and count() >  5"),
        Expr::And(vec![
            Expr::Call {
                name: "spatial.within".into(),
                text: "spatial.within(Location, spatial.circle(10, 32.1, 34.8))".into(),
            },
            Expr::Call {
                name: "count".into(),
                text: "count() >  5".into(),
            },
        ])
    );
}

#[test]
fn sources() {
    for (text, source) in [
        ("from Orders", Source::Collection("Orders".into())),
        ("from \"Orders\"", Source::Collection("Orders".into())),
        (
            "from 'Order Lines'",
            Source::Collection("Order Lines".into()),
        ),
        ("from @all_docs", Source::Collection("@all_docs".into())),
        ("from 'index'", Source::Collection("index".into())),
        (
            "from index \"Orders/Totals\"",
            Source::Index("Orders/Totals".into()),
        ),
        (
            "from INDEX Orders_Totals",
            Source::Index("Orders_Totals".into()),
        ),
    ] {
        assert_eq!(parse(text).unwrap().source, source, "{text}");
    }
}

#[test]
fn order_by_keys() {
    let query = parse(
        "from Orders order by Freight, Name as alphaNumeric asc, score() desc, Total DESCENDING",
    )
    .unwrap();
    let keys: Vec<_> = query
        .order_by
        .iter()
        .map(|o| (o.key.clone(), o.sort_as.as_deref(), o.descending))
        .collect();
    assert_eq!(
        keys,
        [
            (OrderKey::Field("Freight".into()), None, false),
            (OrderKey::Field("Name".into()), Some("alphaNumeric"), false),
            (
                OrderKey::Call {
                    name: "score".into(),
                    text: "score()".into()
                },
                None,
                true
            ),
            (OrderKey::Field("Total".into()), None, true),
        ]
    );
}

#[test]
fn paging_forms() {
    let paging = |text: &str| {
        let query = parse(text).unwrap();
        (query.limit, query.offset)
    };
    use Count::{Number, Parameter};
    assert_eq!(paging("from X limit 10"), (Some(Number(10)), None));
    assert_eq!(paging("from X offset 5"), (None, Some(Number(5))));
    assert_eq!(
        paging("from X limit 10 offset 5"),
        (Some(Number(10)), Some(Number(5)))
    );
    // RavenDB's `limit M, N`: skip M, take N.
    assert_eq!(
        paging("from X limit 5, 10"),
        (Some(Number(10)), Some(Number(5)))
    );
    assert_eq!(
        paging("from X limit $p0, $p1"),
        (Some(Parameter("p1".into())), Some(Parameter("p0".into())))
    );
    assert_eq!(
        paging("from X limit 18446744073709551615"),
        (Some(Number(u64::MAX)), None)
    );
}

#[test]
fn other_clauses_are_read_past() {
    let clauses = |text: &str| parse(text).unwrap().other_clauses;
    assert_eq!(
        clauses("from Orders as o load o.Company as c select { Name: c.Name, Lines: o.Lines.map(x => x.Product) } include Employee limit 10"),
        ["load", "select", "include"]
    );
    assert_eq!(
        clauses("from Orders update { this.Freight = 1; load('x'); } "),
        ["update"]
    );
    // A `where` after `group by` filters groups, not documents: read past with it.
    let query = parse("from Orders group by Company where count() > 5 order by count() desc select Company limit 3").unwrap();
    assert_eq!(query.filter, None);
    assert!(query.order_by.is_empty());
    assert_eq!(query.other_clauses, ["group by", "select"]);
    assert_eq!(query.limit, Some(Count::Number(3)));
    // Paging before the clauses is accepted too.
    let query = parse("from Orders limit 5 select Name").unwrap();
    assert_eq!(query.other_clauses, ["select"]);
    assert_eq!(query.limit, Some(Count::Number(5)));
    // A field called Limit in a select is not paging.
    assert_eq!(clauses("from Orders select Limit, Offset"), ["select"]);
}

#[test]
fn comments_and_line_breaks() {
    let query = parse("-- orders of one customer\nfrom Orders -- the collection\nwhere Customer = 'c' -- by customer\n").unwrap();
    assert_eq!(query.filter, Some(equal(field("Customer"), string("c"))));
}

#[test]
fn printing() {
    let query = parse("FROM 'Order Lines' AS l WHERE l.a == 1 AND (l.b <> 'x' OR NOT l.c BETWEEN 1 AND 2) ORDER BY l.d AS long DESC select x LIMIT 5, 10").unwrap();
    assert_eq!(
        query.to_rql(),
        "from 'Order Lines' as l where l.a = 1 and (l.b != 'x' or not l.c between 1 and 2) \
         order by l.d as long desc select limit 10 offset 5"
    );
    assert_eq!(parse(&query.to_rql()).unwrap(), query);
    assert_eq!(
        parse("from index 'I' where id() = 'it''s'")
            .unwrap()
            .to_string(),
        r"from index 'I' where id() = 'it\'s'"
    );
    assert_eq!(
        filter("from X where a in ($p, null)").to_string(),
        "a in ($p, null)"
    );
}

// Errors.

#[test]
fn error_messages() {
    let cases = [
        (
            "",
            "expected 'from' at line 1, column 1, found end of query. RavenDB queries start \
             with 'from <Collection>' or 'from index '<Name>''",
        ),
        (
            "select * from Orders",
            "expected 'from' at line 1, column 1, found 'select'. RavenDB queries start with \
             'from <Collection>' or 'from index '<Name>''",
        ),
        (
            "from Orders where Company = 'companies/1-A",
            "unterminated string starting at line 1, column 29. Close it with the quote it \
             opens with (write \\' or '' for a quote inside it)",
        ),
        (
            "from Orders where OrderedAt =",
            "expected a value after '=' at line 1, column 30, found end of query. Compare \
             with a 'string', a number, true, false, null or a $parameter",
        ),
        (
            "from Orders where Customer = Company",
            "expected a value after '=' at line 1, column 30, found 'Company'. Compare with a \
             'string', a number, true, false, null or a $parameter",
        ),
        (
            "from Orders\nwhere Name ~ 'x'",
            "expected an operator after 'Name' at line 2, column 12, found '~'. Compare with \
             =, !=, <, <=, >, >=, in (…), all in (…) or between … and …",
        ),
        (
            "from Orders where",
            "expected a condition after 'where' at line 1, column 18, found end of query. A \
             condition is a comparison such as Name = 'x' or id() = 'x', 'not' and a \
             condition, a condition in parentheses, a method call such as search(Name, 'x'), or \
             true",
        ),
        (
            "from Orders where (a = 1 or b = 2",
            "expected ')' at line 1, column 34, found end of query. The '(' at line 1, column \
             19 is not closed; join the conditions inside it with 'and' or 'or'",
        ),
        (
            "from Orders where a = 1 b = 2",
            "expected end of query at line 1, column 25, found 'b'. Join conditions with 'and' \
             or 'or'. After 'from' come, in order: 'where', 'order by', clauses such as \
             'select' or 'include', then 'limit' and 'offset'",
        ),
        (
            "from Orders limit 10 where a = 1",
            "expected end of query at line 1, column 22, found 'where'. After 'from' come, in \
             order: 'where', 'order by', clauses such as 'select' or 'include', then 'limit' \
             and 'offset'",
        ),
        (
            "from where a = 1",
            "expected a collection name after 'from' at line 1, column 6, found 'where'. \
             RavenDB queries start with 'from <Collection>' or 'from index '<Name>''; quote a \
             name that is a keyword: from 'Order'",
        ),
        (
            "from index",
            "expected an index name after 'index' at line 1, column 11, found end of query. \
             Name the index in quotes: from index 'Orders/Totals'",
        ),
        (
            "from Orders as where",
            "expected an alias after 'as' at line 1, column 16, found 'where'",
        ),
        (
            "from Orders where id(x) = 'a'",
            "expected ')' after 'id(' at line 1, column 22, found 'x'. id() takes no argument, \
             or the query's alias: id(o) in 'from Orders as o'",
        ),
        (
            "from Orders where a in 'x'",
            "expected '(' after 'in' at line 1, column 24, found the string 'x'. Write in ('a', 'b')",
        ),
        (
            "from Orders where a in ('x' 'y')",
            "expected ',' or ')' in the list after 'in' at line 1, column 29, found the string 'y'",
        ),
        (
            "from Orders where a all ('x')",
            "expected 'in' after 'all' at line 1, column 25, found '('. Compare with =, !=, <, \
             <=, >, >=, in (…), all in (…) or between … and …",
        ),
        (
            "from Orders where a between 1 or 2",
            "expected 'and' after the low end of 'between' at line 1, column 31, found 'or'. \
             Write between <low> and <high>",
        ),
        (
            "from Orders where a. = 1",
            "expected a name after '.' at line 1, column 22, found '='",
        ),
        (
            "from Orders where a[0] = 1",
            "expected ']' after '[' at line 1, column 21, found '0'. Field paths take [] for \
             every item of an array, e.g. Lines[].Product",
        ),
        (
            "from Orders where search(Name, 'x'",
            "expected ')' to close 'search(' at line 1, column 35, found end of query",
        ),
        (
            "from Orders order Name",
            "expected 'by' after 'order' at line 1, column 19, found 'Name'",
        ),
        (
            "from Orders order by",
            "expected a field or a method call after 'by' at line 1, column 21, found end of query",
        ),
        (
            "from Orders order by Name as number",
            "expected a sort type after 'as' at line 1, column 30, found 'number'. Sort as \
             string, long, double or alphaNumeric",
        ),
        (
            "from Orders limit -1",
            "expected a whole number or a $parameter after 'limit' at line 1, column 19, found '-1'",
        ),
        (
            "from Orders limit 5, 2.5",
            "expected a whole number or a $parameter after ',' at line 1, column 22, found '2.5'",
        ),
        (
            "from Orders limit 18446744073709551616",
            "the number 18446744073709551616 at line 1, column 19 is too large (at most \
             18446744073709551615)",
        ),
        (
            "from Orders limit 5, 10 offset 3",
            "'offset' at line 1, column 25 repeats the offset: 'limit M, N' already skips M \
             results. Write 'limit N offset M' or 'limit M, N', not both",
        ),
        (
            "from Orders where Name = 'x' 'a very long string that goes on and on and on'",
            "expected end of query at line 1, column 30, found the string 'a very long \
             string that goes on and on…. Join conditions with 'and' or 'or'. After 'from' come, \
             in order: 'where', 'order by', clauses such as 'select' or 'include', then \
             'limit' and 'offset'",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(message(text), expected, "{text:?}");
    }
}

#[test]
fn errors_carry_positions() {
    let error = parse("from Orders\nwhere Name = 'é' and\n  Total = ").unwrap_err();
    assert!(matches!(error, RqlError::Expected { .. }));
    assert_eq!(
        error.position(),
        Position {
            offset: 43,
            line: 3,
            column: 11
        }
    );
    assert_eq!(
        parse("from X where a = 'é").unwrap_err(),
        RqlError::UnterminatedString {
            at: Position {
                offset: 17,
                line: 1,
                column: 18
            }
        }
    );
    // Broken strings are errors even in clauses that are read past.
    assert!(matches!(
        parse("from X select 'oops"),
        Err(RqlError::UnterminatedString { .. })
    ));
}

#[test]
fn nesting_is_limited() {
    let nested = |levels: usize, open: &str| {
        format!(
            "from X where {}a = 1{}",
            open.repeat(levels),
            ")".repeat(levels)
        )
    };
    assert!(parse(&nested(MAX_DEPTH, "(")).is_ok());
    let error = parse(&nested(MAX_DEPTH + 1, "(")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "too deeply nested at line 1, column 78: at most 64 levels of parentheses and 'not'"
    );
    let nots = |levels: usize| format!("from X where {}a = 1", "not ".repeat(levels));
    assert!(parse(&nots(MAX_DEPTH)).is_ok());
    assert!(matches!(
        parse(&nots(MAX_DEPTH + 1)),
        Err(RqlError::TooDeep { .. })
    ));
    // Hostile sizes end in an error, not a stack overflow.
    assert!(matches!(
        parse(&nested(100_000, "(not ")),
        Err(RqlError::TooDeep { .. })
    ));
    // Long flat chains and deep method arguments are not recursion.
    let chain = vec!["a = 1"; 50_000].join(" or ");
    assert!(matches!(
        parse(&format!("from X where {chain}")).unwrap().filter,
        Some(Expr::Or(items)) if items.len() == 50_000
    ));
    let deep_call = format!(
        "from X where f({}1{})",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    assert!(parse(&deep_call).is_ok());
}

// Properties.

fn name() -> impl Strategy<Value = String> {
    "[A-Za-z_@][A-Za-z0-9_]{0,6}".prop_filter("not a keyword", |s| {
        !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(s))
    })
}

fn path() -> impl Strategy<Value = String> {
    (
        name(),
        prop::collection::vec(
            prop_oneof![name().prop_map(|n| format!(".{n}")), Just("[]".to_string())],
            0..3,
        ),
    )
        .prop_map(|(first, rest)| first + &rest.concat())
        .prop_filter("not id", |p| !p.eq_ignore_ascii_case("id"))
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<String>().prop_map(Value::String),
        "[+-]?[0-9]{1,6}(\\.[0-9]{1,3})?".prop_map(Value::Number),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        "[a-z][a-z0-9_]{0,5}".prop_map(Value::Parameter),
    ]
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![1 => Just(Operand::Id), 4 => path().prop_map(Operand::Field)]
}

fn op() -> impl Strategy<Value = CompareOp> {
    prop_oneof![
        Just(CompareOp::Equal),
        Just(CompareOp::NotEqual),
        Just(CompareOp::Less),
        Just(CompareOp::LessOrEqual),
        Just(CompareOp::Greater),
        Just(CompareOp::GreaterOrEqual),
    ]
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        Just(Expr::True),
        (operand(), op(), value()).prop_map(|(operand, op, value)| Expr::Compare {
            operand,
            op,
            value
        }),
        (
            operand(),
            prop::collection::vec(value(), 0..4),
            any::<bool>()
        )
            .prop_map(|(operand, values, all)| Expr::In {
                operand,
                values,
                all
            }),
        (operand(), value(), value()).prop_map(|(operand, low, high)| Expr::Between {
            operand,
            low,
            high
        }),
        (
            prop::sample::select(vec!["search", "startsWith", "exists", "spatial.within"]),
            path(),
            value()
        )
            .prop_map(|(name, path, value)| Expr::Call {
                name: name.to_string(),
                text: format!("{name}({path}, {value})"),
            }),
        (op(), value()).prop_map(|(op, value)| Expr::Call {
            name: "count".into(),
            text: format!("count() {} {value}", op.as_str()),
        }),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::Or),
            prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::And),
            inner.prop_map(|e| Expr::Not(Box::new(e))),
        ]
    })
}

fn count() -> impl Strategy<Value = Count> {
    prop_oneof![
        any::<u64>().prop_map(Count::Number),
        "[a-z][a-z0-9_]{0,5}".prop_map(Count::Parameter),
    ]
}

fn order() -> impl Strategy<Value = OrderBy> {
    let key = prop_oneof![
        path().prop_map(OrderKey::Field),
        Just(OrderKey::Call {
            name: "random".into(),
            text: "random()".into()
        }),
    ];
    let sort_as = prop::option::of(prop::sample::select(vec![
        "string",
        "long",
        "double",
        "alphaNumeric",
    ]));
    (key, sort_as, any::<bool>()).prop_map(|(key, sort_as, descending)| OrderBy {
        key,
        sort_as: sort_as.map(str::to_string),
        descending,
    })
}

fn query() -> impl Strategy<Value = Query> {
    let source = prop_oneof![
        any::<String>().prop_map(Source::Collection),
        name().prop_map(Source::Collection),
        any::<String>().prop_map(Source::Index),
    ];
    let clause = prop::sample::select(vec!["select", "include", "load", "update", "group by"]);
    (
        source,
        prop::option::of(name()),
        prop::option::of(expr()),
        prop::collection::vec(order(), 0..3),
        prop::option::of(count()),
        prop::option::of(count()),
        prop::collection::vec(clause.prop_map(str::to_string), 0..3),
    )
        .prop_map(
            |(source, alias, filter, order_by, limit, offset, other_clauses)| Query {
                source,
                alias,
                filter,
                order_by,
                limit,
                offset,
                other_clauses,
            },
        )
}

/// What the parser makes of `expr`: an `or` in an `or` (or `and` in `and`) spliced in.
fn flattened(expr: Expr) -> Expr {
    let splice = |items: Vec<Expr>, or: bool| {
        let mut flat = Vec::new();
        for item in items.into_iter().map(flattened) {
            match item {
                Expr::Or(inner) if or => flat.extend(inner),
                Expr::And(inner) if !or => flat.extend(inner),
                other => flat.push(other),
            }
        }
        flat
    };
    match expr {
        Expr::Or(items) => Expr::Or(splice(items, true)),
        Expr::And(items) => Expr::And(splice(items, false)),
        Expr::Not(inner) => Expr::Not(Box::new(flattened(*inner))),
        other => other,
    }
}

/// Words and symbols of RQL, and some that are not.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "from", "FROM", "index", "as", "where", "and", "or", "not", "in", "all", "between",
            "order by", "asc", "desc", "limit", "offset", "select", "group by", "include", "load",
            "update", "id()", "id(o)", "true", "null", "(", ")", ",", ".", "[]", "[", "=", "!=",
            "<", ">=", "<>", "{", "}", "'", "\"", "\\", "--", "\n", "$", "@", "-", "1", "2.5",
            "-3", "'s'", "\"q\"", "$p", "search(", "count()", "o", "o.", "Orders", "a = 1",
        ])
        .prop_map(str::to_string),
        "[a-z]{1,3}",
        any::<char>().prop_map(String::from),
    ]
}

/// A printed query with a few tokens inserted and a few characters deleted: text near
/// RQL, often still valid, which reaches deeper than random text does.
fn mutated_query() -> impl Strategy<Value = String> {
    let edit = (any::<prop::sample::Index>(), prop::option::of(token()));
    (query(), prop::collection::vec(edit, 0..4)).prop_map(|(query, edits)| {
        let mut chars: Vec<char> = query.to_rql().chars().collect();
        for (at, token) in edits {
            let at = at.index(chars.len() + 1);
            match token {
                Some(token) => {
                    let inserted = format!(" {token} ");
                    chars.splice(at..at, inserted.chars());
                }
                None if at < chars.len() => {
                    chars.remove(at);
                }
                None => {}
            }
        }
        chars.into_iter().collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_parses_or_errs_without_panicking(text in any::<String>()) {
        if let Err(error) = parse(&text) {
            let at = error.position();
            prop_assert!(at.offset <= text.chars().count());
            prop_assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn whatever_parses_prints_back_to_itself(text in mutated_query()) {
        match parse(&text) {
            Ok(query) => {
                let printed = query.to_rql();
                prop_assert_eq!(parse(&printed), Ok(query), "printed: {}", printed);
            }
            Err(error) => prop_assert!(error.position().offset <= text.chars().count()),
        }
    }

    #[test]
    fn generated_queries_round_trip(query in query()) {
        let printed = query.to_rql();
        let expected = Query { filter: query.filter.clone().map(flattened), ..query };
        prop_assert_eq!(parse(&printed), Ok(expected), "printed: {}", printed);
    }
}

#[test]
fn a_query_past_the_limit_is_refused_before_it_is_read() {
    use ravenshard_design::rql::MAX_QUERY_BYTES;
    let head = "from Orders -- ";
    let longest = format!("{head}{}", "x".repeat(MAX_QUERY_BYTES - head.len()));
    assert_eq!(longest.len(), MAX_QUERY_BYTES);
    assert!(parse(&longest).is_ok());
    // One byte more, the limit falling inside the last character.
    let text = format!("{}é", &longest[..MAX_QUERY_BYTES - 1]);
    let e = parse(&text).unwrap_err();
    assert!(
        matches!(e, RqlError::TooLong { bytes, .. } if bytes == MAX_QUERY_BYTES + 1),
        "{e:?}"
    );
    assert_eq!(e.position().offset, MAX_QUERY_BYTES - 1);
    assert_eq!(
        e.to_string(),
        "the query is 1048577 bytes long, past the 1048576 bytes a query may have (from line \
         1, column 1048576 on). Shorten it: pass long lists of values as a $parameter, or \
         split the query"
    );
}
