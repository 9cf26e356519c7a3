/**
 * The schemas of the demo's usable projects, run once as the owner on the new database (after the template's
 * grants, so default privileges give the API roles their access). Each is worth documenting: tables and columns
 * with comments, primary and foreign keys, defaults, identity columns, nullable and jsonb columns, an enum, a view
 * (security_invoker, so row level security still applies through it), STABLE and VOLATILE functions with required
 * and optional arguments, and some rows; and storage buckets (a public one limited to some types, a private one).
 * They show good practice: row level security is on for every table, and its policies say what each API role may do
 * (anon reads what a shop or a recipe site shows anyone, and writes nothing; authenticated users may write recipes;
 * what belongs to one customer is service_role's alone). The key is stored in project_databases.demo_schema.
 */

const recipes = /* sql */ `
create type difficulty as enum ('easy', 'medium', 'hard');
comment on type difficulty is 'How hard a recipe is to cook.';

create table authors (
  id bigint generated always as identity primary key,
  name text not null,
  bio text,
  created_at timestamptz not null default now()
);
comment on table authors is 'People who write recipes.';
comment on column authors.bio is 'A short introduction; optional.';

create table recipes (
  id bigint generated always as identity primary key,
  author_id bigint not null references authors (id) on delete cascade,
  title text not null,
  description text,
  difficulty difficulty not null default 'easy',
  minutes integer not null default 30 check (minutes > 0),
  servings integer,
  nutrition jsonb,
  published boolean not null default false,
  created_at timestamptz not null default now()
);
comment on table recipes is 'Recipes. Anonymous visitors see only the published ones.';
comment on column recipes.minutes is 'Preparation and cooking time, in minutes.';
comment on column recipes.nutrition is 'Per serving, e.g. {"kcal": 420, "protein_g": 12}.';
comment on column recipes.published is 'Visible to anonymous visitors when true.';

create table ingredients (
  id bigint generated always as identity primary key,
  recipe_id bigint not null references recipes (id) on delete cascade,
  name text not null,
  quantity numeric,
  unit text
);
comment on table ingredients is 'What goes into a recipe, in the order they are used.';
comment on column ingredients.quantity is 'Empty for "to taste".';

create table ratings (
  recipe_id bigint not null references recipes (id) on delete cascade,
  rater text not null,
  stars smallint not null check (stars between 1 and 5),
  created_at timestamptz not null default now(),
  primary key (recipe_id, rater)
);
comment on table ratings is 'One rating per rater and recipe. Anonymous visitors may read ratings but not add them.';
revoke insert, update, delete on ratings from anon;

-- Row level security on every table: a role sees and changes only what a policy below lets it.
alter table authors enable row level security;
alter table recipes enable row level security;
alter table ingredients enable row level security;
alter table ratings enable row level security;

create policy "Anyone can read authors" on authors for select to anon, authenticated using (true);
create policy "Signed-in users can write authors" on authors for all to authenticated using (true) with check (true);

create policy "Anyone can read published recipes" on recipes for select to anon using (published);
create policy "Signed-in users can read every recipe" on recipes for select to authenticated using (true);
create policy "Signed-in users can write recipes" on recipes for all to authenticated using (true) with check (true);

create policy "Anyone can read the ingredients of published recipes" on ingredients for select to anon
  using (exists (select 1 from recipes r where r.id = recipe_id and r.published));
create policy "Signed-in users can read every ingredient" on ingredients for select to authenticated using (true);
create policy "Signed-in users can write ingredients" on ingredients for all to authenticated using (true) with check (true);

create policy "Anyone can read ratings" on ratings for select to anon, authenticated using (true);
create policy "Signed-in users can rate" on ratings for insert to authenticated with check (true);
create policy "Signed-in users can change a rating" on ratings for update to authenticated using (true) with check (true);

create view recipe_summaries with (security_invoker = true) as
  select r.id, r.title, a.name as author, r.difficulty, r.minutes,
         round(avg(t.stars), 1) as average_stars, count(t.stars)::integer as ratings
  from recipes r
  join authors a on a.id = r.author_id
  left join ratings t on t.recipe_id = r.id
  group by r.id, a.name;
comment on view recipe_summaries is 'Each recipe with its author and average rating.';

create function recipes_within(max_minutes integer, level difficulty default null)
returns setof recipes language sql stable as $$
  select * from recipes
  where minutes <= max_minutes and (level is null or difficulty = level)
  order by minutes, id
$$;
comment on function recipes_within(integer, difficulty) is 'Recipes ready within max_minutes, optionally of one difficulty only.';

create function rate_recipe(recipe bigint, score integer, rater_name text default 'anonymous')
returns ratings language sql volatile as $$
  insert into ratings (recipe_id, rater, stars) values (recipe, rater_name, score)
  on conflict (recipe_id, rater) do update set stars = excluded.stars, created_at = now()
  returning *
$$;
comment on function rate_recipe(bigint, integer, text) is 'Rates a recipe from 1 to 5 stars; rating it again replaces the earlier rating.';

insert into authors (name, bio) values
  ('Ada Baker', 'Bakes bread on weekends and writes about it.'),
  ('Luis Ortega', null),
  ('Mei Chen', 'Weeknight dinners in thirty minutes or less.');

insert into recipes (author_id, title, description, difficulty, minutes, servings, nutrition, published) values
  (1, 'Sourdough loaf', 'A crusty loaf with a long, slow rise.', 'hard', 1440, 8, '{"kcal": 210, "protein_g": 7}', true),
  (2, 'Tortilla española', 'Potatoes and eggs, slowly cooked in olive oil.', 'medium', 45, 4, '{"kcal": 380, "protein_g": 14}', true),
  (3, 'Tomato and egg stir-fry', 'Soft eggs in a sweet and sour tomato sauce.', 'easy', 15, 2, '{"kcal": 290, "protein_g": 16}', true),
  (3, 'Sesame noodles', 'Cold noodles in a sesame and chili dressing.', 'easy', 20, 2, null, false),
  (1, 'Rye crackers', 'Still testing the baking time.', 'medium', 60, null, null, false);

insert into ingredients (recipe_id, name, quantity, unit) values
  (1, 'bread flour', 500, 'g'), (1, 'water', 375, 'g'), (1, 'sourdough starter', 100, 'g'), (1, 'salt', 10, 'g'),
  (2, 'potatoes', 600, 'g'), (2, 'eggs', 6, null), (2, 'onion', 1, null), (2, 'olive oil', 200, 'ml'),
  (3, 'tomatoes', 3, null), (3, 'eggs', 4, null), (3, 'sugar', 1, 'tsp'), (3, 'salt', null, null),
  (4, 'wheat noodles', 200, 'g'), (4, 'sesame paste', 2, 'tbsp'), (4, 'chili oil', 1, 'tbsp');

insert into ratings (recipe_id, rater, stars) values
  (1, 'sam', 5), (1, 'kim', 4), (2, 'sam', 4), (3, 'kim', 5), (3, 'lee', 3);

insert into storage.buckets (id, name, public, allowed_mime_types, file_size_limit) values
  ('recipe-photos', 'recipe-photos', true, '{image/png,image/jpeg,image/webp}', 5242880),
  ('drafts', 'drafts', false, null, null);
`

const storefront = /* sql */ `
create type order_status as enum ('pending', 'paid', 'shipped', 'cancelled');
comment on type order_status is 'Where an order is between checkout and delivery.';

create table categories (
  id bigint generated always as identity primary key,
  slug text not null unique,
  name text not null
);
comment on table categories is 'Groups of products shown together in the shop.';

create table products (
  id bigint generated always as identity primary key,
  category_id bigint references categories (id) on delete set null,
  sku text not null unique,
  name text not null,
  description text,
  price_cents integer not null check (price_cents >= 0),
  attributes jsonb not null default '{}'::jsonb,
  stock integer not null default 0 check (stock >= 0),
  published boolean not null default false,
  created_at timestamptz not null default now()
);
comment on table products is 'What the shop sells. Anonymous visitors see only published products.';
comment on column products.category_id is 'Empty for products not yet sorted into a category.';
comment on column products.price_cents is 'Price in cents, taxes included.';
comment on column products.attributes is 'Free-form details, e.g. {"color": "blue", "size": "M"}.';

create table customers (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  full_name text,
  created_at timestamptz not null default now()
);
comment on table customers is 'People who bought something. Not readable by anonymous visitors.';
revoke all on customers from anon;

create table orders (
  id bigint generated always as identity primary key,
  customer_id uuid not null references customers (id) on delete restrict,
  status order_status not null default 'pending',
  shipping_address jsonb,
  note text,
  created_at timestamptz not null default now()
);
comment on table orders is 'One checkout of one customer. Only the shop itself (service_role) reads orders.';
comment on column orders.shipping_address is 'Empty until the customer enters it at checkout.';

create table order_items (
  order_id bigint not null references orders (id) on delete cascade,
  product_id bigint not null references products (id),
  quantity integer not null default 1 check (quantity > 0),
  unit_price_cents integer not null,
  primary key (order_id, product_id)
);
comment on table order_items is 'The products of an order, at the price they had when ordered.';

-- Row level security on every table: a role sees and changes only what a policy below lets it.
alter table categories enable row level security;
alter table products enable row level security;
alter table customers enable row level security;
alter table orders enable row level security;
alter table order_items enable row level security;

create policy "Anyone can read categories" on categories for select to anon, authenticated using (true);

create policy "Anyone can read published products" on products for select to anon using (published);
create policy "Signed-in users can read every product" on products for select to authenticated using (true);

-- Customers, orders and their items belong to one customer each, and nothing links a customer to a signed-in user
-- yet (no auth.uid() to compare with): no policy lets anon or authenticated see or change them, and anon holds no
-- privilege on them at all. Only service_role (which bypasses row level security: the shop's own server) and the
-- owner read them; place_order runs with the caller's rights, so it is theirs too. Once users sign in, a policy such
-- as "customers read their own orders" (using (customer_id = auth.uid())) is what to add.
revoke all on orders, order_items from anon;

create view product_catalog with (security_invoker = true) as
  select p.id, p.sku, p.name, c.name as category, round(p.price_cents / 100.0, 2) as price, p.stock > 0 as in_stock
  from products p
  left join categories c on c.id = p.category_id;
comment on view product_catalog is 'Products with their category and price in currency units.';

create function search_products(query text, max_price_cents integer default null)
returns setof products language sql stable as $$
  select * from products
  where (name ilike '%' || query || '%' or description ilike '%' || query || '%')
    and (max_price_cents is null or price_cents <= max_price_cents)
  order by price_cents, id
$$;
comment on function search_products(text, integer) is 'Products whose name or description contains query, optionally up to a price.';

create function place_order(customer_email text, product_sku text, quantity integer default 1)
returns orders language plpgsql volatile as $$
declare
  buyer customers;
  item products;
  placed orders;
begin
  select * into buyer from customers where email = customer_email;
  if not found then
    insert into customers (email) values (customer_email) returning * into buyer;
  end if;
  select * into item from products where sku = product_sku for update;
  if not found then
    raise exception 'no product with sku %', product_sku using errcode = 'P0002';
  end if;
  update products set stock = stock - place_order.quantity where id = item.id;
  insert into orders (customer_id) values (buyer.id) returning * into placed;
  insert into order_items (order_id, product_id, quantity, unit_price_cents)
    values (placed.id, item.id, place_order.quantity, item.price_cents);
  return placed;
end
$$;
comment on function place_order(text, text, integer) is 'Orders quantity of one product for a customer (created when new) and takes it from stock.';

insert into categories (slug, name) values ('apparel', 'Apparel'), ('home', 'Home'), ('stationery', 'Stationery');

insert into products (category_id, sku, name, description, price_cents, attributes, stock, published) values
  (1, 'TEE-BLU-M', 'Logo T-shirt', 'Organic cotton, blue.', 2400, '{"color": "blue", "size": "M"}', 40, true),
  (1, 'HOOD-GRY-L', 'Hoodie', 'Heavyweight fleece, grey.', 5900, '{"color": "grey", "size": "L"}', 12, true),
  (2, 'MUG-WHT', 'Enamel mug', 'Holds 350 ml; dishwasher safe.', 1500, '{"volume_ml": 350}', 100, true),
  (3, 'NOTE-A5', 'Dotted notebook', 'A5, 120 pages.', 1200, '{"pages": 120}', 0, true),
  (null, 'LAMP-PROTO', 'Desk lamp prototype', null, 8900, '{}', 3, false);

insert into customers (id, email, full_name) values
  ('6f1c2d4e-0b7a-4c1e-9a53-2f8e1d0c7b11', 'jo@example.com', 'Jo Rivera'),
  ('0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f66', 'sam@example.com', null);

insert into orders (customer_id, status, shipping_address, note) values
  ('6f1c2d4e-0b7a-4c1e-9a53-2f8e1d0c7b11', 'shipped', '{"city": "Lisbon", "country": "PT"}', 'Gift wrap, please'),
  ('0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f66', 'pending', null, null);

insert into order_items (order_id, product_id, quantity, unit_price_cents) values
  (1, 1, 2, 2400), (1, 3, 1, 1500), (2, 2, 1, 5900);

insert into storage.buckets (id, name, public, allowed_mime_types, file_size_limit) values
  ('product-images', 'product-images', true, '{image/*}', null),
  ('invoices', 'invoices', false, '{application/pdf}', 10485760);
`

export const demoSchemas: Record<string, string> = { recipes, storefront }

export function demoSchemaSql(key: string | null): string | undefined {
  if (!key) return undefined
  const sql = demoSchemas[key]
  if (!sql) throw new Error(`unknown demo schema '${key}'`)
  return sql
}
